# frozen_string_literal: true

require_relative "helper"
require "open3"
require "rbconfig"
require "tmpdir"

# Where the library is looked for, and the error that names what was tried.
class TestLoading < MvvmTest
  LIB = File.expand_path("../lib", __dir__)
  PROBE = 'require "mvvm"; begin; puts Mvvm.library_path; rescue Mvvm::LibraryError => e; puts e.class, e.message; exit 3; end'

  def run_ruby(env)
    out, status = Open3.capture2e(env, RbConfig.ruby, "-I", LIB, "-e", PROBE)
    [out, status.exitstatus]
  end

  def test_mvvm_library_names_the_file_or_its_folder
    path = Mvvm.library_path
    assert_equal ["#{path}\n", 0], run_ruby("MVVM_LIBRARY" => path)
    assert_equal ["#{path}\n", 0], run_ruby("MVVM_LIBRARY" => File.dirname(path))
  end

  # Swift's crash handler would start swift-backtrace, which Ruby's own handler then leaves
  # holding the process's output for good: a reader of it waited forever.
  def test_a_crash_ends_the_process_and_its_output_at_once
    crash = "Process.setrlimit(:CORE, 0); require 'mvvm'; Mvvm.version; Fiddle::Pointer.new(8)[0]"
    env = { "MVVM_LIBRARY" => Mvvm.library_path, "SWIFT_BACKTRACE" => nil }
    output = +""
    status = nil
    Open3.popen2e(env, RbConfig.ruby, "-I", LIB, "-e", crash) do |_stdin, out, waiter|
      reader = Thread.new { output << out.read }
      assert reader.join(60), "the crashed process's output was still open after 60 s"
      status = waiter.value
    end
    assert_includes output, "[BUG] Segmentation fault"
    refute status.success?
  end

  def test_swift_backtraces_stay_as_the_user_set_them
    probe = 'require "mvvm"; Mvvm.version; puts ENV["SWIFT_BACKTRACE"]'
    base = { "MVVM_LIBRARY" => Mvvm.library_path }
    assert_equal "enable=no\n", Open3.capture2e(base.merge("SWIFT_BACKTRACE" => nil), RbConfig.ruby, "-I", LIB, "-e", probe)[0]
    assert_equal "enable=yes\n", Open3.capture2e(base.merge("SWIFT_BACKTRACE" => "enable=yes"), RbConfig.ruby, "-I", LIB, "-e", probe)[0]
  end

  def test_a_missing_library_names_what_was_tried
    out, status = run_ruby("MVVM_LIBRARY" => "/nonexistent/libmvvm.so")
    assert_equal 3, status
    assert_equal "Mvvm::LibraryError\ncannot load libmvvm.so; tried:\n  /nonexistent/libmvvm.so: no such file\n" \
                 "(MVVM_LIBRARY is set, so nothing else was tried)\n", out
  end

  def test_a_file_that_is_not_a_library
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, "libmvvm.so"), "not an ELF file")
      out, status = run_ruby("MVVM_LIBRARY" => dir)
      assert_equal 3, status
      assert_match(%r{\A  #{Regexp.escape(dir)}/libmvvm\.so: cannot load: }, out.lines[2])
    end
  end

  def test_without_mvvm_library_the_repository_build_folders_are_tried
    saved = ENV.delete("MVVM_LIBRARY")
    root = File.expand_path("../../..", __dir__)
    assert File.file?(File.join(root, "Package.swift"))
    assert_equal %w[debug release].map { |c| File.join(root, ".build", c, "libmvvm.so") }, Mvvm::Native.candidates
    assert_nil Mvvm::Native.repository_root("/")
  ensure
    ENV["MVVM_LIBRARY"] = saved if saved
  end

  def test_the_library_error_is_a_load_error
    assert_operator Mvvm::LibraryError, :<, LoadError
  end
end
