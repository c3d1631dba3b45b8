"""Three Thirteen (§3)."""
