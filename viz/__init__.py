"""Figure builders: plotly figures and graphviz DOT. No streamlit here."""
