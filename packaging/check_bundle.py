"""Check the built bundle ``dist/LitQEval/`` (``make package-test``).

1. ``LitQEval --self-test`` passes (it also runs the parallel RIS parser's workers).
2. ``litqeval-cli`` imports a RIS file large enough for the parallel parser by default
   (the workers re-enter the executable: they must parse, not start the command again).
3. ``litqeval-cli`` reads a PDF (pypdfium2's libpdfium is bundled: ``attach --folder``
   matches it by the DOI on its page) and draws the PRISMA diagram as PNG (the hidden
   ``--render-svg`` argument starts the executable again, with Qt offscreen).
4. None of them wrote anything inside the bundle (numba's cache goes to the per-user folder),
   so a read-only installation works.
5. Linux, as root with ``unshare``: with libxcb-cursor hidden in a private mount
   namespace (the system's copy and the bundle's), ``LitQEval`` names the missing
   library and exits 2 instead of a Qt abort.

Prints each check's time and the bundle's size; exits non-zero naming a failed check.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUNDLE = Path(__file__).resolve().parent.parent / "dist" / "LitQEval"
EXE = ".exe" if os.name == "nt" else ""
APP = BUNDLE / f"LitQEval{EXE}"
CLI = BUNDLE / f"litqeval-cli{EXE}"
BIG_RIS_RECORDS = 6000  # about 5 MB: over the parallel parser's 4 MB threshold
XCB_CURSOR = Path("/usr/lib/x86_64-linux-gnu/libxcb-cursor.so.0")


def run(command: list[str | Path], timeout: int = 600, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True,
                          timeout=timeout, **kwargs)


def check(name: str, ok: bool, output: str) -> None:
    if not ok:
        print(output)
        sys.exit(f"bundle check failed: {name}")


def self_test() -> str:
    done = run([APP, "--self-test"])
    print(done.stdout, end="")
    check("LitQEval --self-test", done.returncode == 0, done.stderr)
    return "self-test passed"


def big_ris(path: Path) -> None:
    abstract = "We screen records with active learning and stop at a known recall. " * 10
    with path.open("w", encoding="utf-8") as out:
        for i in range(BIG_RIS_RECORDS):
            out.write(f"TY  - JOUR\nAU  - Author, A{i}\nTI  - Study number {i} of screening\n"
                      f"PY  - {1990 + i % 30}\nDO  - 10.1000/big.{i}\nAB  - {abstract}\nER  - \n\n")


def cli_import(folder: Path) -> str:
    ris, project = folder / "big.ris", folder / "big.litq"
    big_ris(ris)
    check("litqeval-cli new", run([CLI, "new", project]).returncode == 0, "")
    done = run([CLI, "import", project, ris, "--topic", "big", "--role", "results"])
    check("litqeval-cli import of a large RIS file", done.returncode == 0, done.stdout + done.stderr)
    info = run([CLI, "lists", project])
    check(f"{BIG_RIS_RECORDS} records imported", str(BIG_RIS_RECORDS) in info.stdout, info.stdout)
    return f"{ris.stat().st_size / 2**20:.1f} MB, {BIG_RIS_RECORDS} records"


def one_page_pdf(path: Path, text: str) -> None:
    """A one-page PDF whose text layer reads ``text`` (Helvetica, no other resources)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode("latin-1")
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font "
               b"<< /F1 4 0 R >> >> /Contents 5 0 R >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 6\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    path.write_bytes(bytes(out))


def pdf_and_png(folder: Path) -> str:
    """The project of :func:`cli_import`: a PDF matched by its DOI, the diagram as PNG."""
    project, pdfs, png = folder / "big.litq", folder / "pdfs", folder / "flow.png"
    pdfs.mkdir()
    one_page_pdf(pdfs / "paper.pdf", "Study number 7 of screening doi:10.1000/big.7")
    done = run([CLI, "attach", project, "--topic", "big", "--folder", pdfs, "--link"])
    check("litqeval-cli attach reads a PDF", done.returncode == 0
          and done.stdout.startswith("attached 1 PDF(s)"), done.stdout + done.stderr)
    done = run([CLI, "prisma", project, "--topic", "big", "--png", png])
    check("litqeval-cli prisma --png", done.returncode == 0 and png.is_file()
          and png.read_bytes()[:4] == b"\x89PNG", done.stdout + done.stderr)
    return f"PDF attached; PNG {png.stat().st_size:,} bytes"


def nothing_written(since: float) -> str:
    written = [path for path in BUNDLE.rglob("*") if path.stat().st_mtime > since]
    check("nothing written inside the bundle", not written, "\n".join(map(str, written[:20])))
    return "no file changed"


def missing_xcb() -> str:
    """Hide libxcb-cursor (the system's and the bundle's copy) in a private mount
    namespace: LitQEval must name it and exit 2, not abort in Qt."""
    copies = [path for path in (XCB_CURSOR, BUNDLE / "_internal" / XCB_CURSOR.name)
              if path.exists()]
    if not (sys.platform == "linux" and os.geteuid() == 0 and shutil.which("unshare")
            and copies):
        return "not checked (needs Linux, root, unshare and libxcb-cursor)"
    hide = " && ".join(f'mount --bind /dev/null "$(readlink -f {path})"' for path in copies)
    script = f'{hide} && env -u QT_QPA_PLATFORM -u WAYLAND_DISPLAY DISPLAY=:0 "{APP}"'
    done = run(["unshare", "-m", "--propagation", "private", "sh", "-c", script], timeout=60)
    check("missing xcb library named", done.returncode == 2
          and "libxcb-cursor.so.0" in done.stderr and "libxcb-cursor0" in done.stderr,
          done.stdout + done.stderr)
    return done.stderr.strip()


def main() -> int:
    check("bundle built", APP.is_file() and CLI.is_file(), f"run `make package` ({BUNDLE})")
    since = time.time()
    with tempfile.TemporaryDirectory(prefix="litqeval-bundle-") as folder:
        for name, step in (("self-test", self_test),
                           ("parallel RIS import by litqeval-cli", lambda: cli_import(Path(folder))),
                           ("PDF and PNG by litqeval-cli", lambda: pdf_and_png(Path(folder))),
                           ("read-only bundle", lambda: nothing_written(since)),
                           ("missing xcb libraries", missing_xcb)):
            began = time.perf_counter()
            detail = step()
            print(f"bundle check ok {time.perf_counter() - began:6.1f} s  {name}: {detail}")
    size = sum(p.stat().st_size for p in BUNDLE.rglob("*") if p.is_file() and not p.is_symlink())
    print(f"bundle {BUNDLE}: {size / 2**20:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
