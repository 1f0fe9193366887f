#!/bin/sh
# Prints the text of a PDF, keeping its layout: extract_text.sh <file.pdf> [output.txt]
set -eu

if [ "$#" -lt 1 ] || [ "$#" -gt 2 ]; then
  echo "usage: extract_text.sh <file.pdf> [output.txt]" >&2
  exit 2
fi
if ! command -v pdftotext >/dev/null 2>&1; then
  echo "error: pdftotext is not installed; it comes with poppler-utils." >&2
  echo "install it with: sudo apt-get install poppler-utils   (macOS: brew install poppler)" >&2
  exit 127
fi
if [ ! -f "$1" ]; then
  echo "error: $1: no such file" >&2
  exit 1
fi
exec pdftotext -layout -enc UTF-8 "$1" "${2:--}"
