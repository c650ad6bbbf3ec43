"""Forum engines (SMF, phpBB) behind one small interface. The only package that speaks HTTP."""
