"""What the Python binding shows of a library, for Tests/bindings/agree.py: each class's and
record's name ("class <c name> <name>", "record <c name> <name>") and, when the library has
Tests/outside's meter, its UInt64 values read back ("uint <reading> <ahead(2048)> <set and read
18446744073709549568>"). Usage: python3 print_names_and_uints.py LIBRARY"""

import sys

import mvvm

library = mvvm.load(sys.argv[1])
for c_name, cls in library.classes.items():
    print("class", c_name, cls.__name__)
for c_name, record in library.records.items():
    print("record", c_name, record.__name__)
if "meter" in library.classes:
    loop = library.Loop(mvvm.LoopKind.VIRTUAL)
    meter = library.classes["meter"](loop)
    reading, ahead = meter.reading, meter.ahead(2048)
    meter.reading = 18446744073709549568
    print("uint", reading, ahead, meter.reading)
    mvvm.close(meter)
    mvvm.close(loop)
