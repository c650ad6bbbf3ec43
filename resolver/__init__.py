"""Pure rules engine: state, orders and a ruleset in; events and new state out. No I/O."""
