"""The site owner's workbench (``robotsrules serve``, issue 39) and, later, the JSON service
(issue 41): one package for the web.

:mod:`._tester` holds the answers without the web (the library's own functions, bounded and
shaped for the page); :mod:`._app` the Starlette application, its templates (one per panel
of the page, ``templates/panels/``) and its static files, and the checks every request
passes (see its docstring). Starlette, Jinja2 and uvicorn come with the ``web`` extra:
import this package's modules only when serving.
"""
