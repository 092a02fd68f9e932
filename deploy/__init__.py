"""The site's serving stack outside Django: app servers behind nginx on loopback, started and
stopped together. `make serve-prod` serves with it (deploy/serve.py) and the load runs measure
the same stack (bench/load)."""
