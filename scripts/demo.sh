#!/usr/bin/env bash
# Install forumbot into .venv and run the offline demo on a bundled recorded game.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
pip install -q --upgrade pip
pip install -q -e .
forumbot demo "$@"
