"""The PyPI `varlink` package as a third-party client of the real fontregd.

Starts the built fontregd on a temporary socket with the fixture fonts, introspects it
and calls every method of io.fontreg.Registry, including error replies and a Monitor
stream. Run through run-varlink-client-tests.sh.
"""
import os
import sys
import unittest

import varlink

from fontregd_process import REAL_FONTS, Fontregd

INTERFACE = "io.fontreg.Registry"


class FontregdVarlinkClientTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fontregd = Fontregd(prefix="fontregd-pytest-")
        cls.allowed = cls.fontregd.allowed
        cls.address = "unix:" + cls.fontregd.socket_path
        cls.client = varlink.Client(address=cls.address)

    @classmethod
    def tearDownClass(cls):
        cls.client.cleanup()
        status = cls.fontregd.stop()
        assert status == 0, f"fontregd exited with {status} after SIGTERM"

    def open(self):
        return self.client.open(INTERFACE, namespaced=True)

    def test_introspection_lists_and_parses_the_registry_interface(self):
        with self.client.open("org.varlink.service", namespaced=True) as service:
            info = service.GetInfo()
            description = service.GetInterfaceDescription(INTERFACE).description
        self.assertEqual(info.product, "fontregd")
        self.assertIn(INTERFACE, info.interfaces)
        parsed = varlink.Interface(description)
        self.assertEqual(parsed.name, INTERFACE)
        self.assertTrue({"Resolve", "ResolveMany", "Monitor", "Register"} <= set(parsed.members))

    def test_resolve_returns_the_flat_resolution(self):
        with self.open() as con:
            reply = con.Resolve(family="Fixture Sans", weight="semibold", italic=True)
        self.assertEqual(reply.postscriptName, "FixtureSans-SemiBoldItalic")
        self.assertEqual(reply.weight, 600)
        self.assertEqual(reply.face.family, "Fixture Sans")
        self.assertTrue(reply.trace)

    def test_resolve_with_bold_text_reports_the_effective_weight(self):
        with self.open() as con:
            reply = con.Resolve(family="Fixture Sans", weight="400", boldText=True, boldPolicy="ios-system")
        self.assertEqual(reply.requestedWeight, 400)
        self.assertEqual(reply.effectiveWeight, 600)

    def test_unknown_family_in_strict_mode_is_a_family_not_found_error_with_suggestions(self):
        with self.open() as con:
            with self.assertRaises(varlink.VarlinkError) as raised:
                con.Resolve(family="Fixture Sanz", strict=True)
        self.assertEqual(raised.exception.error(), INTERFACE + ".FamilyNotFound")
        self.assertIn("Fixture Sans", raised.exception.parameters()["suggestions"])

    def test_resolve_many_mixes_resolutions_and_errors(self):
        with self.open() as con:
            reply = con.ResolveMany(queries=[{"family": "Fixture Sans", "weight": "bold"},
                                             {"family": "Nope", "strict": True}])
        self.assertEqual(reply.results[0].resolution.postscriptName, "FixtureSans-Bold")
        self.assertEqual(reply.results[1].error.error, INTERFACE + ".FamilyNotFound")

    def test_list_families_faces_and_get_face(self):
        with self.open() as con:
            families = con.ListFamilies().families
            self.assertIn("Fixture Sans", [family.name for family in families])
            faces = con.ListFaces(family="Fixture Sans").faces
            self.assertEqual(len(faces), 18)
            face = con.GetFace(postscriptName="FixtureSans-Black").face
            self.assertEqual(face.weight, 900)
            with self.assertRaises(varlink.VarlinkError) as raised:
                con.GetFace(postscriptName="Missing-Face")
            self.assertEqual(raised.exception.error(), INTERFACE + ".FaceNotFound")

    def test_layout_answers_the_baseline_per_platform_and_faces_carry_metrics(self):
        with self.open() as con:
            face = con.GetFace(postscriptName="FixtureSans-Regular").face
            layout = con.Layout(family="Fixture Sans", size=16.0, lineHeight="150%")
        upm = face.metrics.unitsPerEm
        self.assertGreater(upm, 0)
        self.assertLess(face.metrics.hhea.descender, 0)
        self.assertEqual(layout.face.postscriptName, "FixtureSans-Regular")
        self.assertEqual(layout.lineHeight, 24)
        ascent, descent = face.metrics.hhea.ascender * 16 / upm, -face.metrics.hhea.descender * 16 / upm
        self.assertAlmostEqual(layout.figma.baseline, (24 - ascent - descent) / 2 + ascent)
        self.assertEqual(layout.css.baseline, layout.figma.baseline)
        self.assertEqual(layout.flutter.leadingDistribution, "even")
        self.assertFalse(layout.android.includeFontPadding)

    def test_get_status_reports_counts_and_version(self):
        with self.open() as con:
            status = con.GetStatus()
        self.assertGreaterEqual(status.faces, 128)
        self.assertGreater(status.families, 0)
        self.assertTrue(any(problem.path.endswith("empty.ttf") for problem in status.problems))
        self.assertEqual(status.version, "0.1.0")

    def test_register_outside_allowed_roots_is_refused(self):
        with self.open() as con:
            with self.assertRaises(varlink.VarlinkError) as raised:
                con.Register(paths=[os.path.join(REAL_FONTS, "Inter")])
        self.assertEqual(raised.exception.error(), INTERFACE + ".PathNotAllowed")
        self.assertEqual(raised.exception.parameters()["allowedRoots"], [self.allowed])

    def test_monitor_streams_register_unregister_and_rescan(self):
        monitor_client = varlink.Client(address=self.address)
        try:
            with monitor_client.open(INTERFACE, namespaced=True) as monitor, self.open() as con:
                stream = monitor.Monitor(_more=True)
                first = next(stream)
                self.assertEqual(first.event, "subscribed")
                lato = os.path.join(self.allowed, "Lato")
                registered = con.Register(paths=[lato])
                self.assertEqual(len(registered.added), 18)
                event = next(stream)
                self.assertEqual(event.event, "changed")
                self.assertEqual(len(event.added), 18)
                self.assertEqual(event.generation, registered.generation)
                rescanned = con.Rescan()
                self.assertEqual(rescanned.added, [])
                removed = con.Unregister(paths=[lato])
                self.assertEqual(len(removed.removed), 18)
                event = next(stream)
                self.assertEqual(len(event.removed), 18)
                with self.assertRaises(varlink.VarlinkError) as raised:
                    con.Unregister(paths=[lato])
                self.assertEqual(raised.exception.error(), INTERFACE + ".NotRegistered")
        finally:
            monitor_client.cleanup()


DEBIAN_LATO = "/usr/share/fonts/truetype/lato"
NOTO_ARABIC = [f"/usr/share/fonts/truetype/noto/NotoSansArabic-{weight}.ttf" for weight in ("Regular", "Bold")]
ARABIC_TEXT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "bench-fallback-texts", "arabic.txt")


@unittest.skipUnless(os.path.isdir(DEBIAN_LATO) and all(map(os.path.exists, NOTO_ARABIC)),
                     "needs Debian's fonts-lato and fonts-noto-core (scripts/setup-deps.sh --test)")
class ResolveTextOverVarlinkTests(unittest.TestCase):
    """ResolveText of the benchmark's Arabic text (issue 29): Lato draws every space, Noto Sans
    Arabic the words, so the reply has hundreds of runs, in the full and the compact form."""

    @classmethod
    def setUpClass(cls):
        cls.fontregd = Fontregd(prefix="fontregd-pytext-", fonts=[DEBIAN_LATO], copies=NOTO_ARABIC)
        cls.client = varlink.Client(address="unix:" + cls.fontregd.socket_path)
        with open(ARABIC_TEXT, encoding="utf-8") as file:
            sample = file.read()
        cls.text = sample
        while len(cls.text.encode()) < 4096:
            cls.text += sample

    @classmethod
    def tearDownClass(cls):
        cls.client.cleanup()
        status = cls.fontregd.stop()
        assert status == 0, f"fontregd exited with {status} after SIGTERM"

    def test_the_arabic_text_decodes_into_816_runs_that_tile_it(self):
        with self.client.open(INTERFACE, namespaced=True) as con:
            reply = con.ResolveText(text=self.text, families=["Lato"])
        runs = reply.runs
        self.assertEqual(len(runs), 816)
        self.assertEqual("".join(run.text for run in runs), self.text)
        encoded = self.text.encode()
        for run in runs:
            self.assertEqual(encoded[run.start:run.end].decode(), run.text)
        self.assertEqual({run.postscriptName for run in runs}, {"Lato-Regular", "NotoSansArabic-Regular"})
        self.assertTrue(all(a.postscriptName != b.postscriptName for a, b in zip(runs, runs[1:])))
        self.assertEqual(reply.missing, [])

    def test_the_compact_reply_expands_to_the_full_one(self):
        with self.client.open(INTERFACE, namespaced=False) as con:
            full = con.ResolveText(text=self.text, families=["Lato"])
            compact = con.ResolveText(text=self.text, families=["Lato"], compact=True)
        self.assertEqual(compact["runs"], [])
        self.assertEqual(len(compact["faces"]), 2)
        encoded = self.text.encode()
        expanded = []
        spans = compact["spans"]
        self.assertEqual(len(spans) % 5, 0)
        for base in range(0, len(spans), 5):
            face, start, end, start16, end16 = spans[base:base + 5]
            run = dict(compact["faces"][face])
            run.update({"start": start, "end": end, "startUTF16": start16, "endUTF16": end16})
            run["text"] = encoded[start:end].decode()
            expanded.append(run)
        self.assertEqual(expanded, full["runs"])
        self.assertEqual(compact["missing"], full["missing"])


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    failed = len(result.failures) + len(result.errors)
    print(f"varlink: {max(result.testsRun - failed, 0)} passed, {failed} failed")
    sys.exit(1 if failed or not result.wasSuccessful() else 0)
