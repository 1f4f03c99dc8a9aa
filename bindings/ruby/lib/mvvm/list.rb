# frozen_string_literal: true

module Mvvm
  # One change of a list property, as GListModel's items-changed: at `index`, `removed` items
  # went and `inserted` items came. A subscriber of the list gets one per splice, in ascending
  # order of index, each counted in the list as the splices before it left it; the items a
  # splice inserts are already at their final indices (readable in the block).
  Splice = Struct.new(:index, :removed, :inserted) do
    # Applies the splice to `copy` (an Array, changed in place), the items inserted given by the
    # block from their index (list[index] for a copy of items, or their identities...).
    def apply(copy)
      raise IndexError, "#{inspect} does not fit a copy of #{copy.size} items" if index + removed > copy.size

      copy[index, removed] = Array.new(inserted) { |k| yield(index + k) }
      copy
    end

    def inspect = "#<Mvvm::Splice index=#{index} removed=#{removed} inserted=#{inserted}>"
    alias_method :to_s, :inspect
  end

  # A list property of a view model, read live: each read asks the library, so it always says
  # what the list holds now. Read-only and Enumerable: #size, #[] (an index, negative from the
  # end, start and length, or a range), #each, #first, #last, #to_a. Items are objects of the
  # list's item class (Mvvm::Song...), each read a new handle to the same item: compare them with
  # == or Base#identity, which is stable for the item's life. Changes are heard by subscribing to
  # the property: the block gets an Mvvm::Splice per splice.
  class List
    include Enumerable

    # The object holding the list, and the property's name (a Symbol).
    attr_reader :owner, :name

    def initialize(owner, name)
      @owner = owner
      @name = name.to_sym
      @c_name = Native.c_string(name)
      @library = Mvvm.library_of(owner)
    end

    # The number of items now.
    def size
      @library.native.call_out(:mvvm_list_count, Mvvm.handle(@owner), @c_name, format: "q")
    end
    alias length size

    def count(*args, &block)
      return size if args.empty? && block.nil?

      super
    end

    def empty? = size.zero?

    # list[i] (nil past the end, negative counts from the end), list[start, length], list[range].
    def [](index, length = nil)
      return slice_of(index, length) if length
      return slice_range(index) if index.is_a?(Range)

      index = Integer(index)
      n = size
      index += n if index.negative?
      return nil if index.negative? || index >= n

      item(index)
    end
    alias slice []

    # list.fetch(i): IndexError past the end.
    def fetch(index)
      self[index] || raise(IndexError, "index #{index} outside of #{@name} (#{size} items)")
    end

    def at(index) = self[index]

    # Yields each item, in order, as the list is while iterating (an item removed meanwhile ends
    # the iteration early rather than raising).
    def each
      return enum_for(:each) { size } unless block_given?

      index = 0
      while index < size
        object = begin
          item(index)
        rescue InvalidArgumentError
          break # the list shrank
        end
        yield object
        index += 1
      end
      self
    end

    def first(n = nil)
      n.nil? ? self[0] : self[0, n]
    end

    def last(n = nil)
      return self[-1] if n.nil?

      total = size
      self[[total - n, 0].max, [n, total].min]
    end

    # The identities of the items, in order (Mvvm.identity of each).
    def identities
      map { |item| Mvvm.identity(item) }
    end

    # The item at `index` (0...size), a new object; Mvvm::InvalidArgumentError out of range.
    def item(index)
      handle = @library.native.call_out(:mvvm_list_item, Mvvm.handle(@owner), @c_name, index)
      @library.wrap(handle, Mvvm.loop_of(@owner), parent: @owner)
    end

    # Equal to another List of the same property of the same object, or to an Array of the
    # same items.
    def ==(other)
      case other
      when List then other.owner.equal?(@owner) && other.name == @name
      when Array then to_a == other
      else false
      end
    end

    def to_s = inspect

    def inspect
      "#<Mvvm::List #{@owner.class.name}##{@name} size=#{Mvvm.closed?(@owner) ? '?' : size}>"
    end

    private

    def slice_of(start, length)
      n = size
      start = Integer(start)
      start += n if start.negative?
      return nil if start.negative? || start > n || length.negative?

      (start...[start + length, n].min).map { |i| item(i) }
    end

    def slice_range(range)
      n = size
      first = range.begin || 0
      first += n if first.negative?
      last = range.end.nil? ? n - 1 : range.end
      last += n if last.negative?
      last -= 1 if range.exclude_end? && !range.end.nil?
      return nil if first.negative? || first > n

      (first..[last, n - 1].min).map { |i| item(i) }
    end
  end
end
