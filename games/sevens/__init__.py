"""Killing Sevens (殺しの7並べ): engine, computer players and simulator."""
