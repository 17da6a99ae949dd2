"""The PyPI `asyncvarlink` package as a third-party client of the real fontregd.

asyncvarlink builds its Varlink types from Python type annotations: a struct is a
dataclass, a method's parameters are keyword arguments and its reply a TypedDict. A field
named like a Python keyword cannot be declared at all (DisabledEntry.global was renamed
systemWide for this reason, issue 23 item 9). These tests:

- turn every struct of the served io.fontreg.Registry (named types, anonymous struct
  fields, method parameters and replies, error parameters) into a dataclass with the
  interface's own field names, and decode real replies with them;
- declare a client interface by hand, as an asyncvarlink user would, check that what
  asyncvarlink renders from it agrees with the served description, and call the daemon
  with it: Resolve, ListFamilies, Disable/Enable and GetStatus's DisabledEntry records,
  GetBoldText/SetBoldText, typed error replies, and a Monitor stream.

Starts the built fontregd on a temporary socket with the fixture fonts (fontregd_process.py,
as test_varlink_client.py does). Run through run-varlink-client-tests.sh.
"""
import asyncio
import collections.abc
import dataclasses
import enum
import keyword
import os
import sys
import typing
import unittest

import varlink
from asyncvarlink import (
    TypedVarlinkErrorReply,
    VarlinkClientProtocol,
    VarlinkInterface,
    VarlinkMethodCall,
    connect_unix_varlink,
    varlinkmethod,
)
from asyncvarlink.conversion import DataclassVarlinkType, VarlinkType
from asyncvarlink.serviceinterface import VarlinkServiceInterface

from fontregd_process import Fontregd

INTERFACE = "io.fontreg.Registry"
TIMEOUT = 20  # seconds for any one call or stream event


# The client interface, declared statically as asyncvarlink expects: the structs as
# dataclasses named like the interface's types, replies as TypedDicts.

@dataclasses.dataclass
class VariationAxis:
    tag: str
    minimum: float
    defaultValue: float
    maximum: float


@dataclasses.dataclass
class AxisValue:
    tag: str
    value: float


@dataclasses.dataclass
class LineMetrics:
    ascender: int
    descender: int
    lineGap: int


@dataclasses.dataclass
class WindowsMetrics:
    ascent: int
    descent: int


@dataclasses.dataclass
class Metrics:
    unitsPerEm: int
    hhea: LineMetrics
    typo: LineMetrics
    win: WindowsMetrics
    useTypoMetrics: bool
    capHeight: int
    xHeight: int


@dataclasses.dataclass
class Face:
    postscriptName: str
    family: str
    subfamily: str
    fullName: str
    weight: int
    italic: bool
    oblique: bool
    width: int
    file: str
    index: int
    instance: int | None
    fileSize: int
    format: str
    isColor: bool
    axes: list[VariationAxis]
    widthPercent: float
    italicAngle: float
    coordinates: list[AxisValue]
    fontRevision: float
    metrics: Metrics


@dataclasses.dataclass
class Synthesis:
    bold: bool
    oblique: bool
    obliqueAngle: float | None


@dataclasses.dataclass
class Family:
    name: str
    faceCount: int
    weights: list[int]
    hasItalic: bool
    files: list[str]


@dataclasses.dataclass
class Problem:
    path: str
    reason: str


@dataclasses.dataclass
class DuplicateMember:
    postscriptName: str
    file: str
    index: int
    instance: int | None
    fontRevision: float
    reason: str | None
    explanation: str | None


@dataclasses.dataclass
class Duplicate:
    kind: str
    key: str
    winner: DuplicateMember
    losers: list[DuplicateMember]


@dataclasses.dataclass
class Registration:
    path: str
    owner: int
    scope: str
    private: bool


@dataclasses.dataclass
class DisabledEntry:
    kind: str
    value: str
    owner: int
    systemWide: bool


class ResolveReply(typing.TypedDict):
    postscriptName: str
    file: str
    index: int
    instance: int | None
    weight: int
    variations: dict[str, float]
    synthesis: Synthesis
    italic: bool
    match: str
    composedName: str | None
    requestedWeight: int
    effectiveWeight: int
    trace: list[str]
    warnings: list[str]
    family: str
    resolvedFamily: str
    boldPolicy: str | None
    face: Face


class ListFamiliesReply(typing.TypedDict):
    families: list[Family]


class GetStatusReply(typing.TypedDict):
    faces: int
    families: int
    generation: int
    problems: list[Problem]
    fontDirectories: list[str]
    registeredPaths: list[str]
    uptimeSeconds: float
    version: str
    connections: int
    duplicates: list[Duplicate]
    registrations: list[Registration]
    disabled: list[DisabledEntry]
    boldText: bool


class ToggleReply(typing.TypedDict):
    kind: str
    target: str
    faces: list[Face]


class GetBoldTextReply(typing.TypedDict):
    boldText: bool
    source: str
    boldPolicy: str | None


class SetBoldTextReply(typing.TypedDict):
    boldText: bool
    source: str


class RegisterReply(typing.TypedDict):
    added: list[Face]
    problems: list[Problem]
    generation: int


class UnregisterReply(typing.TypedDict):
    removed: list[Face]
    generation: int


class MonitorReply(typing.TypedDict):
    event: str
    generation: int
    faces: int
    added: list[Face]
    removed: list[Face]


class FamilyNotFound(TypedVarlinkErrorReply, interface=INTERFACE, paramprefix=""):
    class Parameters:
        family: str
        suggestions: list[str]


class FaceNotFound(TypedVarlinkErrorReply, interface=INTERFACE, paramprefix=""):
    class Parameters:
        postscriptName: str


class NotDisabled(TypedVarlinkErrorReply, interface=INTERFACE, paramprefix=""):
    class Parameters:
        target: str


class Registry(VarlinkInterface, name=INTERFACE):
    """The part of io.fontreg.Registry these tests call."""

    errors = (FamilyNotFound, FaceNotFound, NotDisabled)

    @varlinkmethod
    def Resolve(self, *, family: str, weight: str | None = None, italic: bool | None = None,
                style: str | None = None, width: str | None = None, opticalSize: float | None = None,
                synthesis: str | None = None, boldText: bool | None = None,
                boldPolicy: str | None = None, strict: bool | None = None) -> ResolveReply: ...

    @varlinkmethod
    def ListFamilies(self) -> ListFamiliesReply: ...

    @varlinkmethod
    def GetStatus(self) -> GetStatusReply: ...

    @varlinkmethod
    def Disable(self, *, target: str, kind: str | None = None) -> ToggleReply: ...

    @varlinkmethod
    def Enable(self, *, target: str, kind: str | None = None) -> ToggleReply: ...

    @varlinkmethod
    def GetBoldText(self) -> GetBoldTextReply: ...

    @varlinkmethod
    def SetBoldText(self, *, boldText: bool | None) -> SetBoldTextReply: ...

    @varlinkmethod
    def Register(self, *, paths: list[str], persist: bool | None = None,
                 scope: str | None = None) -> RegisterReply: ...

    @varlinkmethod
    def Unregister(self, *, paths: list[str]) -> UnregisterReply: ...

    @varlinkmethod
    def Monitor(self) -> collections.abc.Iterator[MonitorReply]: ...


# The served description as Python types: a dataclass for every struct.

def spelling(vtype):
    """A type as the `varlink` package's parser (varlink.Interface, its scanner classes)
    reads it, spelled as the IDL spells it; an anonymous struct's fields in their order."""
    if isinstance(vtype, bool):
        return "bool"
    if isinstance(vtype, int):
        return "int"
    if isinstance(vtype, float):
        return "float"
    if isinstance(vtype, str):
        return "string"
    if isinstance(vtype, set):
        return "[string]()"
    if isinstance(vtype, varlink.scanner._Object):
        return "object"
    if isinstance(vtype, varlink.scanner._Maybe):
        return "?" + spelling(vtype.element_type)
    if isinstance(vtype, varlink.scanner._Array):
        return "[]" + spelling(vtype.element_type)
    if isinstance(vtype, varlink.scanner._Dict):
        return "[string]" + spelling(vtype.element_type)
    if isinstance(vtype, varlink.scanner._CustomType):
        return vtype.name
    if isinstance(vtype, varlink.scanner._Enum):
        return "(" + ", ".join(vtype.fields) + ")"
    if isinstance(vtype, varlink.scanner._Struct):
        return "(" + ", ".join(f"{name}: {spelling(field)}" for name, field in vtype.fields.items()) + ")"
    raise TypeError(f"unknown varlink type {vtype!r}")


def fields(vtype):
    """A struct's fields and their spellings (the order of fields does not matter), or the
    spelling of any other type."""
    if isinstance(vtype, varlink.scanner._Struct):
        return {name: spelling(field) for name, field in vtype.fields.items()}
    return spelling(vtype)


class ServedTypes:
    """Every struct of a parsed interface as a dataclass made with dataclasses.make_dataclass
    under the interface's own field names: named types under their names, a method's
    parameters and reply as <Method>Parameters and <Method>Reply, an error's parameters as
    <Error>Error, an anonymous struct field as <Owner>_<field>. make_dataclass refuses a field
    name that is a Python keyword or not an identifier, so building them is the check."""

    def __init__(self, interface):
        self.interface = interface
        self.aliases = {name: member for name, member in interface.members.items()
                        if isinstance(member, varlink.scanner._Alias)}
        self.classes = {}
        for name in self.aliases:
            self.named(name)
        for name, member in interface.members.items():
            if isinstance(member, varlink.scanner._Method):
                self.struct(name + "Parameters", member.in_type)
                self.struct(name + "Reply", member.out_type)
            elif isinstance(member, varlink.scanner._Error):
                self.struct(name + "Error", member.type)

    def named(self, name):
        if name not in self.classes:
            self.classes[name] = self.python_type(self.aliases[name].type, name)
        return self.classes[name]

    def struct(self, name, struct):
        fields = [(field, self.python_type(vtype, f"{name}_{field}")) for field, vtype in struct.fields.items()]
        self.classes[name] = dataclasses.make_dataclass(name, fields)
        return self.classes[name]

    def python_type(self, vtype, owner):
        if isinstance(vtype, bool):
            return bool
        if isinstance(vtype, int):
            return int
        if isinstance(vtype, float):
            return float
        if isinstance(vtype, str):
            return str
        if isinstance(vtype, set):
            return set[str]
        if isinstance(vtype, varlink.scanner._Object):
            return typing.Any
        if isinstance(vtype, varlink.scanner._Maybe):
            return self.python_type(vtype.element_type, owner) | None
        if isinstance(vtype, varlink.scanner._Array):
            return list[self.python_type(vtype.element_type, owner)]
        if isinstance(vtype, varlink.scanner._Dict):
            return dict[str, self.python_type(vtype.element_type, owner)]
        if isinstance(vtype, varlink.scanner._CustomType):
            return self.named(vtype.name)
        if isinstance(vtype, varlink.scanner._Enum):
            for value in vtype.fields:
                if keyword.iskeyword(value) or not value.isidentifier():
                    raise TypeError(f"{owner}: enum value {value!r} is not a usable Python name")
            return enum.Enum(owner, list(vtype.fields))
        if isinstance(vtype, varlink.scanner._Struct):
            return self.struct(owner, vtype)
        raise TypeError(f"unknown varlink type {vtype!r}")

    def decode(self, name, parameters):
        """A reply's parameters decoded by asyncvarlink into the dataclass of that name."""
        return DataclassVarlinkType(self.classes[name]).fromjson(parameters)


def within(awaitable):
    return asyncio.wait_for(awaitable, TIMEOUT)


class FontregdAsyncvarlinkClientTests(unittest.IsolatedAsyncioTestCase):
    @classmethod
    def setUpClass(cls):
        cls.fontregd = Fontregd(prefix="fontregd-asyncvarlink-")
        cls.allowed = cls.fontregd.allowed
        cls.socket_path = cls.fontregd.socket_path

    @classmethod
    def tearDownClass(cls):
        status = cls.fontregd.stop()
        assert status == 0, f"fontregd exited with {status} after SIGTERM"

    async def connect(self):
        transport, protocol = await within(connect_unix_varlink(VarlinkClientProtocol, self.socket_path))
        self.addCleanup(transport.close)
        return protocol

    async def asyncSetUp(self):
        # IsolatedAsyncioTestCase runs the loop in debug mode, which reports every callback
        # over 0.1 s (decoding a reply of many faces on a busy machine).
        asyncio.get_running_loop().slow_callback_duration = 2.0
        self.protocol = await self.connect()
        self.registry = self.protocol.make_proxy(Registry)
        service = self.protocol.make_proxy(VarlinkServiceInterface)
        reply = await within(service.GetInterfaceDescription(interface=INTERFACE))
        self.served = varlink.Interface(reply["description"])

    async def raw_call(self, method, **parameters):
        """A call whose reply asyncvarlink does not convert: its parameters as JSON."""
        reply, _ = await within(self.protocol.call(VarlinkMethodCall(f"{INTERFACE}.{method}", parameters)))
        self.assertIsNone(reply.error, f"{method} failed: {reply.error} {reply.parameters}")
        return reply.parameters

    async def test_every_served_struct_becomes_a_dataclass_that_decodes_real_replies(self):
        types = ServedTypes(self.served)
        self.assertEqual([field.name for field in dataclasses.fields(types.classes["DisabledEntry"])],
                         ["kind", "value", "owner", "systemWide"])
        for name, cls in types.classes.items():
            with self.subTest(type=name):
                VarlinkType.from_type_annotation(cls)  # asyncvarlink accepts every one
        await self.raw_call("Disable", target="FixtureSans-Black")
        try:
            status = types.decode("GetStatusReply", await self.raw_call("GetStatus"))
        finally:
            await self.raw_call("Enable", target="FixtureSans-Black")
        entry = next(entry for entry in status.disabled if entry.value == "FixtureSans-Black")
        self.assertIsInstance(entry, types.classes["DisabledEntry"])
        self.assertTrue(entry.systemWide)
        resolution = types.decode("ResolveReply", await self.raw_call("Resolve", family="Fixture Sans", weight="700"))
        self.assertEqual(resolution.postscriptName, "FixtureSans-Bold")
        self.assertIsInstance(resolution.face.metrics.hhea, types.classes["LineMetrics"])
        families = types.decode("ListFamiliesReply", await self.raw_call("ListFamilies"))
        self.assertIn("Fixture Sans", [family.name for family in families.families])

    async def test_the_rendered_client_interface_agrees_with_the_served_description(self):
        client = varlink.Interface(Registry.render_interface_description()).members
        served = self.served.members
        self.assertIn("DisabledEntry", client)
        for name, member in client.items():
            with self.subTest(member=name):
                self.assertIn(name, served)
                if isinstance(member, varlink.scanner._Method):
                    # Any of the served parameters, all the required ones; the reply exactly,
                    # since asyncvarlink refuses a reply field it has no type for.
                    wanted, given = fields(served[name].in_type), fields(member.in_type)
                    self.assertEqual(given, {field: wanted.get(field) for field in given})
                    self.assertLessEqual({field for field, vtype in wanted.items() if not vtype.startswith("?")},
                                         set(given))
                    self.assertEqual(fields(member.out_type), fields(served[name].out_type))
                else:
                    self.assertEqual(fields(member.type), fields(served[name].type))

    async def test_resolve_at_weight_700_gives_the_bold_face(self):
        reply = await within(self.registry.Resolve(family="Fixture Sans", weight="700"))
        self.assertEqual(reply["postscriptName"], "FixtureSans-Bold")
        self.assertEqual(reply["weight"], 700)
        self.assertIsInstance(reply["face"], Face)
        self.assertIsInstance(reply["synthesis"], Synthesis)
        self.assertEqual(reply["face"].family, "Fixture Sans")
        self.assertGreater(reply["face"].metrics.unitsPerEm, 0)

    async def test_list_families_decodes_into_family_records(self):
        families = (await within(self.registry.ListFamilies()))["families"]
        sans = next(family for family in families if family.name == "Fixture Sans")
        self.assertIsInstance(sans, Family)
        self.assertIn(700, sans.weights)
        self.assertTrue(sans.hasItalic)

    async def test_disable_as_root_is_a_system_wide_disabled_entry(self):
        disabled = await within(self.registry.Disable(target="FixtureSans-Black", kind="face"))
        try:
            self.assertEqual(disabled["kind"], "face")
            self.assertEqual([face.postscriptName for face in disabled["faces"]], ["FixtureSans-Black"])
            entries = (await within(self.registry.GetStatus()))["disabled"]
            self.assertIn(DisabledEntry(kind="face", value="FixtureSans-Black", owner=os.getuid(), systemWide=True),
                          entries)
        finally:
            await within(self.registry.Enable(target="FixtureSans-Black", kind="face"))
        with self.assertRaises(NotDisabled) as raised:
            await within(self.registry.Enable(target="FixtureSans-Black", kind="face"))
        self.assertEqual(raised.exception.target, "FixtureSans-Black")

    async def test_bold_text_setting_round_trips(self):
        before = await within(self.registry.GetBoldText())
        self.assertEqual(before["source"], "default")
        try:
            self.assertEqual(await within(self.registry.SetBoldText(boldText=True)), {"boldText": True, "source": "user"})
            now = await within(self.registry.GetBoldText())
            self.assertTrue(now["boldText"])
            self.assertEqual(now["source"], "user")
        finally:
            reset = await within(self.registry.SetBoldText(boldText=None))
        self.assertEqual(reset, {"boldText": before["boldText"], "source": "default"})

    async def test_an_unknown_family_is_the_typed_family_not_found_error(self):
        with self.assertRaises(FamilyNotFound) as raised:
            await within(self.registry.Resolve(family="Fixture Sanz", strict=True))
        self.assertEqual(raised.exception.family, "Fixture Sanz")
        self.assertIn("Fixture Sans", raised.exception.suggestions)

    async def test_monitor_streams_a_register_and_an_unregister(self):
        transport, protocol = await within(connect_unix_varlink(VarlinkClientProtocol, self.socket_path))
        self.addCleanup(transport.close)
        stream = protocol.make_proxy(Registry).Monitor()
        first = await within(anext(stream))
        self.assertEqual(first["event"], "subscribed")
        lato = os.path.join(self.allowed, "Lato")
        registered = await within(self.registry.Register(paths=[lato]))
        self.assertEqual(len(registered["added"]), 18)
        event = await within(anext(stream))
        self.assertEqual(event["event"], "changed")
        self.assertEqual(event["generation"], registered["generation"])
        self.assertEqual({face.postscriptName for face in event["added"]},
                         {face.postscriptName for face in registered["added"]})
        self.assertTrue(all(isinstance(face, Face) for face in event["added"]))
        removed = await within(self.registry.Unregister(paths=[lato]))
        event = await within(anext(stream))
        self.assertEqual(len(event["removed"]), len(removed["removed"]))
        # The stream never ends by itself; closing its connection ends it.
        transport.close()
        with self.assertRaises(ConnectionResetError):
            await within(anext(stream))

if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    failed = len(result.failures) + len(result.errors)
    print(f"asyncvarlink: {max(result.testsRun - failed, 0)} passed, {failed} failed")
    sys.exit(1 if failed or not result.wasSuccessful() else 0)
