"""The game runtime's plumbing: clock, schedule arithmetic, leases, the runtime context."""
