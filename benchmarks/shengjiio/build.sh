#!/bin/sh
# Build shengji.io's rules crates (core, mechanics) and the JSON-lines driver of
# benchmarks/shengjiio_diff.py, offline, with Debian's Rust and librust-*-dev crates
# (apt-get list in that script's docstring), in a directory outside the checkout:
#
#   benchmarks/shengjiio/build.sh SHENGJI_IO_GIT [BUILD_DIR]    # prints the driver's path
#
# SHENGJI_IO_GIT: a clone of github.com/rbtying/shengji (bare or not) holding commit
# $SHENGJI_IO_COMMIT (default 71f8d43). BUILD_DIR defaults to /tmp/shengji-io-crate.
# schemars and slog_derive are not packaged by Debian: stubs/ stands in for them (the
# rules never use a schema or a log). Debian's rustc (1.63) predates three std calls the
# crates use; each is rewritten to its equivalent below, and `--cap-lints warn` keeps the
# crates' `deny(warnings)` from failing on lints newer than the code. Nothing else changes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: build.sh SHENGJI_IO_GIT [BUILD_DIR]}
dest=${2:-/tmp/shengji-io-crate}
commit=${SHENGJI_IO_COMMIT:-71f8d43}
cargo=${CARGO:-/usr/bin/cargo}
export RUSTC=${RUSTC:-/usr/bin/rustc}
export RUSTFLAGS="${RUSTFLAGS:-} --cap-lints warn"

rm -rf "$dest/src" "$dest/driver" "$dest/stubs"
mkdir -p "$dest/src" "$dest/.cargo"
git -C "$src" archive "$commit" core mechanics | tar -x -C "$dest/src"
cp -r "$here/driver" "$here/stubs" "$dest/"
cp "$here/workspace.toml" "$dest/Cargo.toml"
cp "$here/cargo-config.toml" "$dest/.cargo/config.toml"

# file, text, replacement: each text must occur exactly once
rewrite() {
    n=$(grep -cF -- "$2" "$dest/src/$1" || true)
    [ "$n" = 1 ] || { echo "build.sh: '$2' occurs $n times in $1" >&2; exit 1; }
    python3 - "$dest/src/$1" "$2" "$3" <<'PY'
import sys
path, old, new = sys.argv[1:]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(text.replace(old, new))
PY
}
rewrite mechanics/src/trick.rs "std::iter::repeat_n(*count, members.len())" \
    "std::iter::repeat(*count).take(members.len())"
rewrite mechanics/src/trick.rs "mapping.is_some_and(|m| m.len() == 1 && m[0].is_bomb())" \
    "mapping.map_or(false, |m| m.len() == 1 && m[0].is_bomb())"
rewrite core/src/game_state/initialize_phase.rs \
    "self.propagated.players.len().is_multiple_of(2)" "self.propagated.players.len() % 2 == 0"

cd "$dest"
nice -n 10 "$cargo" build --release --offline >&2
echo "$dest/target/release/sjio-driver"
