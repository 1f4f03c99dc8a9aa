# frozen_string_literal: true

# Shared by every test file: minitest, the catalog's library, a virtual loop per test, an event
# recorder, and a check after each test that the library ran the destroy function of every callback.
require "minitest/autorun"
require "mvvm"

# The binding has no default library: the suite loads the one most tests drive, the catalog's
# (examples/catalog: libcatalog.so), by path, once, from MVVM_CATALOG_LIBRARY (run_tests.sh sets
# it from its argument). Named Catalog, as its signatures (examples/catalog/sig/catalog.rbs) are.
def catalog_library_path
  path = ENV.fetch("MVVM_CATALOG_LIBRARY", "")
  abort "MVVM_CATALOG_LIBRARY is not set: run the tests with bindings/ruby/run_tests.sh build/catalog" if path.empty?
  path
end
Catalog = Mvvm.load(catalog_library_path)

# "👨‍👩‍👧‍👦": one grapheme cluster of seven scalars (25 bytes).
FAMILY = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}"
# "é" as "e" and a combining acute accent: one grapheme cluster of two scalars.
E_ACUTE_DECOMPOSED = "e\u0301"

# Records [name, value] of every event it is given; use it as a block: subscribe(:x, &recorder).
class Recorder
  attr_reader :events, :threads

  def initialize
    @events = []
    @threads = []
  end

  def to_proc
    proc do |name, value|
      @events << [name, value]
      @threads << Thread.current
    end
  end

  def values(name = nil)
    @events.select { |n, _| name.nil? || n == name }.map(&:last)
  end

  def count(name = nil)
    values(name).size
  end
end

# The library of Tests/outside (libsample.so: Profile, Wishlist, Dialog...), loaded beside the
# catalog's, when MVVM_SAMPLE_LIBRARY names it (run_tests.sh and make test-ruby do).
def sample_library
  path = ENV.fetch("MVVM_SAMPLE_LIBRARY", "")
  path.empty? ? nil : Mvvm.load(path)
end

class MvvmTest < Minitest::Test
  def setup
    @loops = []
    @stats_before = Mvvm::Callbacks.stats
    @loop = new_loop(:virtual)
  end

  # A loop (of the catalog's library, or of `library`) closed after the test.
  def new_loop(kind = :virtual, library: Catalog)
    Mvvm::Loop.new(kind, library: library).tap { |loop| @loops << loop }
  end

  def teardown
    @loops.each(&:close)
    after = Mvvm::Callbacks.stats
    assert_equal 0, after[:live], "callbacks never destroyed: #{Mvvm::Callbacks.entries.values.map(&:name).inspect}"
    assert_equal @stats_before[:unknown_destroys], after[:unknown_destroys], "a callback destroyed twice"
  end
end

# Tests of Tests/outside's classes, in this process beside the catalog's library: they
# exist when MVVM_SAMPLE_LIBRARY is set (run_tests.sh says on stderr when it is not), and fail
# when it names no library. @loop is a loop of the sample library; @sample its namespace.
class SampleTest < MvvmTest
  def self.runnable_methods
    ENV.fetch("MVVM_SAMPLE_LIBRARY", "").empty? ? [] : super
  end

  def setup
    super
    @sample = sample_library
    @loop = new_loop(:virtual, library: @sample)
  end
end
