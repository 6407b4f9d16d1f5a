"""The application: adapters (console now; Discord to come) over the engine."""
