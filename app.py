"""Tree Bias Lab: the entry point. Offers the library engines, builds the navigation and the
frame, then runs the page."""

from trees.conditioning import register_library_engines
from ui import shell

register_library_engines()
shell.run_app()
