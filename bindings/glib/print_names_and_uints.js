// What the GLib bridge shows of a library, for Tests/bindings/agree.py: each class's GType name
// without the bridge's type prefix ("class <c name> <name>") and, when the library has
// Tests/outside's meter, its UInt64 values read back ("uint <reading> <ahead(2048)> <set and read
// 18446744073709549568>") as the guint64 property and the 't' result the bridge gives.
//
//   GI_TYPELIB_PATH=build/gtk gjs bindings/glib/print_names_and_uints.js LIBRARY
const {GLib, MvvmGlib} = imports.gi;

const library = MvvmGlib.Library.open(ARGV[0]);
const prefix = `${library.get_type_prefix()}_`;
for (const name of library.list_classes()) {
    const shown = library.get_class_type(name).name;
    print(`class ${name} ${shown.startsWith(prefix) ? shown.slice(prefix.length) : `(no prefix) ${shown}`}`);
}
if (library.list_classes().includes('meter')) {
    const loop = MvvmGlib.Loop.new(library, null);
    const meter = MvvmGlib.Object.new(loop, 'meter', null);
    const reading = meter.reading;
    const ahead = meter.call('ahead', new GLib.Variant('(t)', [2048])).unpack();
    meter.reading = 18446744073709549568;
    // Numbers that a double holds exactly, printed whole.
    print(`uint ${BigInt(reading)} ${BigInt(ahead)} ${BigInt(meter.reading)}`);
}
