#!/usr/bin/env bash
# The package as a user gets it. Build the sdist and, from it, the wheel (compiled by mypyc, as
# `pip install nightsky` builds it); install the wheel with no extras into a fresh virtual
# environment (its dependencies from the lock) and check there that:
#   * the wheel holds py.typed, the LICENSE and PEP 639 metadata (License-Expression: MIT);
#   * `nightsky --version` prints the one version (src/nightsky/_version.py), compiled engine;
#   * `nightsky games` lists the games and one short game plays (`nightsky play`, bots only);
#   * the package imports without its extras, and what needs an extra says which one.
# Run by `make test` (`make wheel-check`). PYTHON: the interpreter that builds (with the
# `build` package of the test group) and that the fresh environment is based on; LOCK: the
# constraints file; WORK: the scratch folder (emptied first).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
LOCK=${LOCK:-constraints.txt}
WORK=${WORK:-.wheel-check}
say() { printf '== wheel-check: %s\n' "$*"; }
die() { printf 'wheel-check FAILED: %s\n' "$*" >&2; exit 1; }

rm -rf "$WORK"
mkdir -p "$WORK/dist"
start=$SECONDS
say "building the sdist, then the wheel from the sdist (mypyc compiles the engine)"
"$PYTHON" -m build --outdir "$WORK/dist" . >"$WORK/build.log" 2>&1 \
  || { tail -40 "$WORK/build.log"; die "the build failed (log: $WORK/build.log)"; }
grep -q "installing pure Python\|building without compiled" "$WORK/build.log" \
  && die "the wheel was built without its compiled extensions (log: $WORK/build.log)"
wheel=$(ls "$WORK"/dist/nightsky-*.whl)
sdist=$(ls "$WORK"/dist/nightsky-*.tar.gz)
say "built $(basename "$wheel") and $(basename "$sdist") in $((SECONDS - start)) s"

version=$("$PYTHON" -c 'import runpy; print(runpy.run_path("src/nightsky/_version.py")["__version__"])')
"$PYTHON" - "$wheel" "$sdist" "$version" <<'EOF'
import sys, tarfile, zipfile
wheel, sdist, version = sys.argv[1:]
names = zipfile.ZipFile(wheel).namelist()
info = f"nightsky-{version}.dist-info"
need = ["nightsky/py.typed", "nightsky/_compiled.json", f"{info}/licenses/LICENSE",
        "nightsky/games/star_fire/data/cards.toml", "nightsky/web/index.html"]
missing = [n for n in need if n not in names]
assert not missing, f"the wheel lacks {missing}"
assert any(n.endswith(".so") for n in names), "the wheel has no compiled extension"
meta = zipfile.ZipFile(wheel).read(f"{info}/METADATA").decode()
for line in ("License-Expression: MIT", "License-File: LICENSE", f"Version: {version}",
             "Provides-Extra: rl", "Provides-Extra: report"):
    assert line in meta.splitlines(), f"METADATA lacks {line!r}"
assert "Requires-Dist: httpx" not in meta, "httpx is a test dependency, not a runtime one"
held = tarfile.open(sdist).getnames()
for n in ("LICENSE", "setup.py", "src/nightsky/py.typed", "src/nightsky/_version.py"):
    assert f"nightsky-{version}/{n}" in held, f"the sdist lacks {n}"
print(f"wheel and sdist hold py.typed, LICENSE and MIT metadata ({len(names)} files)")
EOF

say "a fresh virtual environment with the wheel and no extras"
"$PYTHON" -m venv "$WORK/venv"
VPY="$WORK/venv/bin/python"
quiet() { "$@" 2> >(grep -v "^WARNING: Location" >&2); }  # this machine's pip.conf noise
quiet "$VPY" -m pip install -q --upgrade "pip>=25.1" >/dev/null
quiet "$VPY" -m pip install -q -c "$LOCK" "$wheel"
cd "$WORK"  # away from src/, so only the installed package can be imported
NS=venv/bin/nightsky

out=$($NS --version)
echo "$out"
[[ "$out" == "nightsky $version, engine: compiled (mypyc)" ]] \
  || die "nightsky --version printed '$out', expected 'nightsky $version, engine: compiled (mypyc)'"
$NS games
$NS play mihi-anguli --players 1 --seats random --seed 7 >play.log \
  || { tail -20 play.log; die "nightsky play failed"; }
grep -q "Final score" play.log || die "nightsky play ended without a final score"
say "played one game of mihi-anguli (1 player, random, seed 7)"

venv/bin/python - <<'EOF'
import importlib
import nightsky
from nightsky._extras import MissingExtraError

# Everything imports without the extras: the optional libraries load when used.
for mod in ("nightsky.cli", "nightsky.server.app", "nightsky.sim", "nightsky.sim.report",
            "nightsky.rl"):
    importlib.import_module(mod)
for extra, call in (
    ("pettingzoo", lambda: nightsky.rl.pettingzoo_env("star-fire")),
    ("gymnasium", lambda: nightsky.rl.gym_env("star-fire")),
    ("openspiel", lambda: importlib.import_module("nightsky.rl.openspiel")),
):
    try:
        call()
    except MissingExtraError as exc:
        assert f'nightsky[{extra}]' in str(exc), exc
    else:
        raise AssertionError(f"{extra}: no error without the extra")
print("imports without extras; the RL faces name their extras")
EOF
if $NS simulate mihi-anguli --players 1 --agents random --games 2 --out sim >sim.log 2>&1; then
  die "simulate --out (plots) ran without matplotlib"
fi
grep -q 'nightsky\[report\]' sim.log || { cat sim.log; die "simulate --out did not name nightsky[report]"; }
say "simulate --out without matplotlib says: $(grep -o 'pip install.*' sim.log | head -1)"
say "passed in $((SECONDS - start)) s"
