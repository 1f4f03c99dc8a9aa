# frozen_string_literal: true

require_relative "helper"
require "open3"
require "rbconfig"

# The classes of a package outside libmvvm (Tests/outside: greeter, tally, the lists), from Ruby
# with no Ruby written for them, as Mvvm's own classes: test/sample/*.rb run in a Ruby of their
# own, with MVVM_LIBRARY naming MVVM_SAMPLE_LIBRARY (the tests of Profile, Wishlist and Dialog
# load it beside libmvvm.so with Mvvm.load instead). Without MVVM_SAMPLE_LIBRARY there is no such
# test (run_tests.sh says so on stderr, keeping minitest's closing line last); with it naming no
# file, the test fails.
class TestSampleLibrary < MvvmTest
  LIB = File.expand_path("../lib", __dir__)
  SUITE = File.expand_path("sample/greeter_tally.rb", __dir__)
  LISTS = File.expand_path("sample/lists.rb", __dir__)
  # The sample suites' tests, at least.
  MINIMUM_RUNS = 10
  MINIMUM_LIST_RUNS = 9

  def test_greeter_and_tally_of_an_outside_package
    run_sample_suite(SUITE, MINIMUM_RUNS)
  end

  def test_lists_of_playlist_and_board_of_an_outside_package
    run_sample_suite(LISTS, MINIMUM_LIST_RUNS)
  end

  def run_sample_suite(suite, minimum_runs)
    path = ENV.fetch("MVVM_SAMPLE_LIBRARY")
    assert File.file?(path), "MVVM_SAMPLE_LIBRARY is #{path}, which is no file " \
                             "(build it: cd Tests/outside && swift build)"

    out, status = Open3.capture2e({ "MVVM_LIBRARY" => File.expand_path(path) },
                                  RbConfig.ruby, "-w", "-I", LIB, suite)
    summary = out.lines.grep(/\A\d+ runs, \d+ assertions, /).last
    refute_nil summary, "the sample suite printed no closing line:\n#{out}"
    runs, failures, errors, skips = summary.match(/\A(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) skips/)
                                           .captures.map(&:to_i)
    assert_equal [0, 0, 0], [failures, errors, skips], "the sample suite:\n#{out}"
    assert_operator runs, :>=, minimum_runs, out
    assert status.success?, "the sample suite exited #{status.exitstatus}:\n#{out}"
    assert_empty out.lines.grep(/warning:/), "warnings:\n#{out}"
  end

  if ENV.fetch("MVVM_SAMPLE_LIBRARY", "").empty?
    remove_method :test_greeter_and_tally_of_an_outside_package
    remove_method :test_lists_of_playlist_and_board_of_an_outside_package
  end
end
