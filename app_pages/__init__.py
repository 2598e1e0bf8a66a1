"""The app's pages: one package per page (``app_pages/<name>/<name>.py`` and the modules it alone uses).

Pages are registered in ``ui/navigation.py``; what every page shares lives in ``ui/``. A page
imports no other page's modules (``tests/test_architecture.py``).
"""
