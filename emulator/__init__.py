"""Desktop emulator: a pygame-ce window showing both screens (backend P-BE-2)."""
