"""The web app's routes, one router per kind: pages, the read API, control, the live feed."""
