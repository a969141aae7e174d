"""The WSGI entry point for gunicorn: ``referee.wsgi:app``."""

from referee.app import create_app

app = create_app()
