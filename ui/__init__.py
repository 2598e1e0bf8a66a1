"""Streamlit helpers shared by the pages: session state, navigation, sidebar, widgets.

Only this package and the page scripts import streamlit.
"""
