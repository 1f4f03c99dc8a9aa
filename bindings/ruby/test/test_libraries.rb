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
    assert_equal Catalog.version, @sample.version
    assert_same @sample::Profile, @sample.class_for("profile")
    assert_same @sample, @sample::Profile.library
    assert_equal %w[speaker slot address contact shape line_item stay], @sample.records.keys
    refute_includes @sample.classes.keys, "sign_up_view_model", "a library carries the catalog only when its hook registers it"
    assert_same Catalog, Mvvm.load(catalog_library_path), "each library is loaded once, by its path"
    refute_same Catalog, @sample
    assert_raises(KeyError) { Catalog.class_for("profile") }
    assert_raises(NameError) { @sample::NoSuchClass }
  end

  def test_two_libraries_side_by_side_each_with_its_own_objects
    catalog_loop = new_loop
    ours = Catalog::SignUpViewModel.new(catalog_loop)
    theirs = @sample::Tally.new(@loop, 0)
    ours.user_id = "abcdef"
    theirs.step = 3
    totals = Recorder.new
    theirs.subscribe(:total, &totals)
    theirs.add
    assert_equal [[:total, 3]], totals.events
    assert_equal ["abcdef", 3], [ours.user_id, theirs.total]
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
    greeter = @sample::Greeter.new(@loop)
    error = assert_raises(Mvvm::InvalidHandleError) { Catalog::TimerViewModel.new(catalog_loop, greeter) }
    assert_match foreign("the model (timer)"), error.message
    sample_service = @sample.service { |request| request.complete(true) }
    error = assert_raises(Mvvm::InvalidHandleError) { Catalog::SignUpViewModel.new(catalog_loop, sample_service) }
    assert_match foreign("argument service"), error.message
    Mvvm.close(sample_service)
    service = Mvvm::Service.new(library: Catalog) { |request| request.complete(true) }
    vm = Catalog::SignUpViewModel.new(catalog_loop, service)
    Mvvm.close(service)
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
