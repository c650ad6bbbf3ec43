"""Pure parsers: post HTML to vote events, PM text to orders. No I/O."""
