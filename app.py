"""Tree Bias Lab: the entry point. Builds the navigation and the frame, then runs the page."""

from ui import shell

shell.run_app()
