"""Who makes the decisions: bots (``bots``, ``search``, found by name in
``registry``) and a person at the terminal (``session``, drawn by ``render``)."""
