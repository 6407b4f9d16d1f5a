"""The Discord adapter: slash commands over the services (discord.py 2.x app_commands)."""
