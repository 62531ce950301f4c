"""The plugin system: hook specifications, the plugin manager, the strategy protocol and its pieces."""
