# frozen_string_literal: true

# What the Ruby binding shows of a library, for Tests/bindings/agree.py: each class's and record's
# constant ("class <c name> <name>", "record <c name> <name>") and, when the library has
# Tests/outside's meter, its UInt64 values read back ("uint <reading> <ahead(2048)> <set and read
# 18446744073709549568>"). Usage: ruby -Ilib test/print_names_and_uints.rb LIBRARY
require "mvvm"

library = Mvvm::Library.load(ARGV.fetch(0))
name_of = ->(value) { library.constants.find { |constant| library.const_get(constant).equal?(value) } }
library.classes.each { |c_name, klass| puts "class #{c_name} #{name_of.(klass)}" }
library.records.each { |c_name, record| puts "record #{c_name} #{name_of.(record)}" }
if library.classes.key?("meter")
  library.loop(:virtual) do |loop|
    meter = library.class_for("meter").new(loop)
    reading = meter.reading
    ahead = meter.ahead(2048)
    meter.reading = 18_446_744_073_709_549_568
    puts "uint #{reading} #{ahead} #{meter.reading}"
    Mvvm.close(meter)
  end
end
