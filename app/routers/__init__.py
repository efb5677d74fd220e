"""One router per feature; each route parses, calls a service, returns a schema.
`lessons.py` (the /lessons pages) is included by app.main when it exists."""
