# frozen_string_literal: true

require_relative "helper"
require "open3"
require "rbconfig"
require "tmpdir"

# A library is loaded by its path, and only so; the error names what failed.
class TestLoading < MvvmTest
  LIB = File.expand_path("../lib", __dir__)
  # Loads the library ARGV[0] names in a Ruby of its own and prints its path, or the error.
  PROBE = 'require "mvvm"; begin; puts Mvvm.load(ARGV[0]).path; ' \
          'rescue Mvvm::LibraryError => e; puts e.class, e.message, e.tried.inspect; exit 3; end'

  def run_ruby(path, env = {}, chdir: Dir.pwd)
    out, status = Open3.capture2e(env, RbConfig.ruby, "-I", LIB, "-e", PROBE, path, chdir: chdir)
    [out, status.exitstatus]
  end

  def test_a_library_is_loaded_by_its_path
    path = Catalog.path
    assert_equal ["#{path}\n", 0], run_ruby(path)
    assert_equal ["#{path}\n", 0], run_ruby(File.basename(path), chdir: File.dirname(path)), "relative to the current folder"
  end

  # Nothing is looked for: requiring the binding loads no library, whatever the environment says
  # (MVVM_LIBRARY once named a default one), and a loop without its library is refused.
  def test_no_library_is_loaded_unless_named
    probe = 'require "mvvm"; puts File.read("/proc/self/maps").include?(File.basename(ARGV[0])); ' \
            'begin; Mvvm::Loop.virtual; rescue ArgumentError => e; puts e.message; end'
    out, status = Open3.capture2e({ "MVVM_LIBRARY" => Catalog.path }, RbConfig.ruby, "-I", LIB, "-e", probe, Catalog.path)
    assert status.success?, out
    assert_equal "false\na loop belongs to a library: give library: Mvvm.load(path) (got nil)\n", out
  end

  # Swift's crash handler would start swift-backtrace, which Ruby's own handler then leaves
  # holding the process's output for good: a reader of it waited forever.
  def test_a_crash_ends_the_process_and_its_output_at_once
    crash = "Process.setrlimit(:CORE, 0); require 'mvvm'; Mvvm.load(ARGV[0]); Fiddle::Pointer.new(8)[0]"
    output = +""
    status = nil
    Open3.popen2e({ "SWIFT_BACKTRACE" => nil }, RbConfig.ruby, "-I", LIB, "-e", crash, Catalog.path) do |_stdin, out, waiter|
      reader = Thread.new { output << out.read }
      assert reader.join(60), "the crashed process's output was still open after 60 s"
      status = waiter.value
    end
    assert_includes output, "[BUG] Segmentation fault"
    refute status.success?
  end

  def test_swift_backtraces_stay_as_the_user_set_them
    probe = 'require "mvvm"; Mvvm.load(ARGV[0]); puts ENV["SWIFT_BACKTRACE"]'
    run = ->(env) { Open3.capture2e(env, RbConfig.ruby, "-I", LIB, "-e", probe, Catalog.path)[0] }
    assert_equal "enable=no\n", run.({ "SWIFT_BACKTRACE" => nil })
    assert_equal "enable=yes\n", run.({ "SWIFT_BACKTRACE" => "enable=yes" })
  end

  def test_a_missing_library_names_what_was_tried
    out, status = run_ruby("/nonexistent/libcatalog.so")
    assert_equal 3, status
    assert_equal "Mvvm::LibraryError\ncannot load /nonexistent/libcatalog.so: no such file\n" \
                 "[[\"/nonexistent/libcatalog.so\", \"no such file\"]]\n", out
  end

  def test_a_folder_is_no_library
    out, status = run_ruby(File.dirname(Catalog.path))
    assert_equal 3, status
    assert_equal "cannot load #{File.dirname(Catalog.path)}: a folder, not a library file", out.lines[1].chomp
  end

  def test_a_file_that_is_not_a_library
    Dir.mktmpdir do |dir|
      path = File.join(dir, "libcatalog.so")
      File.write(path, "not an ELF file")
      out, status = run_ruby(path)
      assert_equal 3, status
      assert_match(/\Acannot load #{Regexp.escape(path)}: cannot load: /, out.lines[1])
    end
  end

  def test_the_library_error_is_a_load_error
    assert_operator Mvvm::LibraryError, :<, LoadError
  end
end
