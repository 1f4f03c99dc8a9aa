# frozen_string_literal: true

require_relative "helper"
require "tmpdir"

# Several libraries in one process: Mvvm.load(path) gives a namespace of a library's classes;
# each object works with its own library only.
class TestLibraries < SampleTest
  def test_a_library_is_a_namespace_of_its_classes_and_records
    assert_instance_of Mvvm::Library, @sample
    assert_same @sample, Mvvm.load(ENV.fetch("MVVM_SAMPLE_LIBRARY")), "loaded once"
    assert_equal File.expand_path(ENV.fetch("MVVM_SAMPLE_LIBRARY")), @sample.path
    assert_equal Mvvm.version, @sample.version
    assert_same @sample::Profile, @sample.class_for("profile")
    assert_same @sample, @sample::Profile.library
    assert_equal %w[speaker slot address contact stay], @sample.records.keys
    assert_includes @sample.classes.keys, "sign_up_view_model", "a package's library carries the catalog too"
    assert_same Mvvm.library, Mvvm.load(Mvvm.library_path), "the library MVVM_LIBRARY names is Mvvm's"
    assert_raises(KeyError) { Mvvm.class_for("profile") }
    assert_raises(NameError) { @sample::NoSuchClass }
  end

  def test_two_libraries_side_by_side_each_with_its_own_objects
    catalog_loop = new_loop
    ours = Mvvm::SignUpViewModel.new(catalog_loop)
    theirs = @sample::SignUpViewModel.new(@loop)
    refute_same Mvvm::SignUpViewModel, @sample::SignUpViewModel
    ours.user_id = "abcdef"
    theirs.user_id = "ghijkl"
    assert_equal %w[abcdef ghijkl], [ours.user_id, theirs.user_id]
    flips = Recorder.new
    theirs.subscribe(:is_sign_up_enabled, &flips)
    theirs.password = theirs.confirm_password = "12345678"
    theirs.agreed = true
    assert_equal [[:is_sign_up_enabled, true]], flips.events
    assert_equal false, ours.is_sign_up_enabled
    @sample.loop(:virtual) do |loop|
      assert_same @sample, loop.library
      assert_equal "Hello, Ann!", @sample::Greeter.new(loop, "Ann").greeting
    end
  end

  # The library's message for a handle of another library, given as `role`.
  def foreign(role)
    /\A#{Regexp.escape(role)} handle 0x\h+ is a handle of another libmvvm library loaded in this process \(tag \d+; this one's is \d+\)/
  end

  # Each library refuses the handles of another: they carry its tag.
  def test_a_loop_model_or_service_of_another_library_is_refused_by_the_library
    catalog_loop = new_loop
    error = assert_raises(Mvvm::InvalidHandleError) { @sample::Profile.new(catalog_loop) }
    assert_match foreign("the loop"), error.message
    timer = @sample::CountDownTimer.new(@loop, 5)
    error = assert_raises(Mvvm::InvalidHandleError) { Mvvm::TimerViewModel.new(catalog_loop, timer) }
    assert_match foreign("the model (timer)"), error.message
    service = Mvvm::Service.new { |request| request.complete(true) }
    error = assert_raises(Mvvm::InvalidHandleError) { @sample::SignUpViewModel.new(@loop, service) }
    assert_match foreign("argument service"), error.message
    Mvvm.close(service)
    sample_service = @sample.service { |request| request.complete(true) }
    vm = @sample::SignUpViewModel.new(@loop, sample_service)
    Mvvm.close(sample_service)
    vm.user_id = "abcdef"
    vm.password = vm.confirm_password = "12345678"
    vm.agreed = true
    vm.sign_up_tapped
    assert_equal true, vm.is_completion_alert_presented
  end

  def test_a_path_that_is_no_library
    error = assert_raises(Mvvm::LibraryError) { Mvvm.load("/nonexistent/libsample.so") }
    assert_equal "cannot load /nonexistent/libsample.so: no such file", error.message
    Dir.mktmpdir do |dir|
      path = File.join(dir, "libnothing.so")
      File.write(path, "not an ELF file")
      error = assert_raises(Mvvm::LibraryError) { Mvvm.load(path) }
      assert_match(/\Acannot load #{Regexp.escape(path)}: cannot load: /, error.message)
    end
  end
end
