"""What every page shares: the frame (shell, sidebar, navigation, presenter mode, guides), the
frame's session-state keys, links, errors, figures and long runs.

Only this package and the pages (``app_pages``) import streamlit; a module here serves more than
one page (what one page uses lives in its room, ``app_pages/<name>/``).
"""
