"""The built fontregd for the third-party client tests: on a temporary socket with the
fixture fonts only (--no-system-fonts, --config /dev/null), its state and cache in a
temporary directory, and a copy of fonts/Lato in the one allowed root for Register.
FONTREGD names the binary (default .build/debug/fontregd)."""
import os
import shutil
import socket
import subprocess
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "fonts")
REAL_FONTS = os.path.join(ROOT, "fonts")


class Fontregd:
    def __init__(self, prefix, listen_timeout=30, fonts=(), copies=()):
        """fonts: further font directories to register; copies: font files copied into one more."""
        binary = os.environ.get("FONTREGD", os.path.join(ROOT, ".build", "debug", "fontregd"))
        if not os.access(binary, os.X_OK):
            raise RuntimeError(f"{binary} is missing: build it first (swift build --product fontregd)")
        self.tmp = tempfile.mkdtemp(prefix=prefix)
        # mkdtemp makes it 0700: fonts in it would be readable by root alone, which the daemon shows
        # to no one else and leaves out of Monitor's events (docs/daemon.md, Security). Fonts here
        # are meant to be every user's, as under /usr/share/fonts.
        os.chmod(self.tmp, 0o755)
        self.allowed = os.path.join(self.tmp, "allowed")
        shutil.copytree(os.path.join(REAL_FONTS, "Lato"), os.path.join(self.allowed, "Lato"))
        extra = []
        for directory in fonts:
            extra += ["--fonts", directory]
        if copies:
            copied = os.path.join(self.tmp, "copies")
            os.mkdir(copied)
            for font in copies:
                shutil.copy(font, copied)
            extra += ["--fonts", copied]
        self.socket_path = os.path.join(self.tmp, "fontregd.sock")
        self.log = open(os.path.join(self.tmp, "fontregd.log"), "w")
        self.process = subprocess.Popen(
            [binary, "--socket", self.socket_path, "--fonts", FIXTURES, "--no-system-fonts",
             "--state-dir", os.path.join(self.tmp, "state"), "--cache-dir", os.path.join(self.tmp, "cache"),
             "--config", "/dev/null", "--allow-root", self.allowed] + extra,
            stdout=self.log, stderr=self.log)
        deadline = time.time() + listen_timeout
        while True:
            try:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(self.socket_path)
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError("fontregd exited early: " + open(self.log.name).read())
                if time.time() > deadline:
                    self.process.kill()
                    raise RuntimeError(f"fontregd did not listen within {listen_timeout} s")
                time.sleep(0.02)

    def stop(self):
        """Stops the daemon with SIGTERM and removes its directory; its exit status."""
        self.process.terminate()
        status = self.process.wait(timeout=20)
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)
        return status
