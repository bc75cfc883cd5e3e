"""The demo estate: its data generator (`estate`), the nights played on it, and the demo runner.

`dw_assets.demo.estate` builds a DW_HOME from nothing (finance GL history, lake orders, the
application database, landing files) and holds the mutations the two nights apply to it.
"""
