"""`polyrag serve`: the pyramid over HTTP (FastAPI on uvicorn). `serving.app.create_app(workspace)`
builds the application; models and stores load once per process. Above querying and completion,
below the command line: the library never imports it.
"""
