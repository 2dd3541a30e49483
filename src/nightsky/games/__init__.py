"""One package per game; each exports ``GAME`` (its ``Game`` subclass) and is found automatically."""
