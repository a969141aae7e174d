"""gunicorn configuration: `gunicorn -c gunicorn.conf.py` (settings in referee/gunicorn_conf.py)."""

from referee.gunicorn_conf import *  # noqa: F401,F403
