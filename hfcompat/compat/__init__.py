"""Drop-in modules with the owners' APIs on hfcompat."""
