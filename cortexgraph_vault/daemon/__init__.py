"""The daemon process: one per vault, on 127.0.0.1, serving the ASGI app from `api/`."""
