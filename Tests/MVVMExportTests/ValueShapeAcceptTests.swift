import CMVVM
import Testing
@testable import MVVMExport

// `ValueShape.accept`, the one conversion every value a host passes goes through, on its own:
// what each shape takes, what it makes of it, and the status and words of each refusal.

private func accepted(_ shape: ValueShape, _ value: Value) -> Result<Value, ExportError> {
    do throws(ExportError) {
        return .success(try shape.accept(value, "argument x"))
    } catch {
        return .failure(error)
    }
}

private func refusal(_ shape: ValueShape, _ value: Value) -> (mvvm_status, String)? {
    guard case let .failure(error) = accepted(shape, value) else { return nil }
    return (error.status, error.message)
}

@Suite struct ValueShapeAcceptTests {
    private let int8 = ValueShape.int(min: -128, max: 127)

    @Test func anIntIsTakenWithinItsRangeFromEitherIntegerKind() throws {
        #expect(try accepted(int8, .int(127)).get() == .int(127))
        #expect(try accepted(int8, .int(-128)).get() == .int(-128))
        #expect(try accepted(int8, .uint(5)).get() == .int(5))
        #expect(refusal(int8, .int(128))! == (MVVM_ERR_INVALID_ARGUMENT, "argument x is out of range: 128 (-128 to 127)"))
        #expect(refusal(int8, .uint(200))?.0 == MVVM_ERR_INVALID_ARGUMENT)
        #expect(refusal(.int64, .uint(UInt64(Int64.max) + 1))?.0 == MVVM_ERR_INVALID_ARGUMENT)
    }

    @Test func aUInt64TakesAnIntAsItsBitsAndADoubleTakesEitherInteger() throws {
        #expect(try accepted(.uint, .int(-1)).get() == .uint(.max))
        #expect(try accepted(.uint, .uint(7)).get() == .uint(7))
        #expect(try accepted(.double, .int(-3)).get() == .double(-3))
        #expect(try accepted(.double, .uint(.max)).get() == .double(Double(UInt64.max)))
    }

    @Test func aStringTakesUTF8BytesAndAnEnumOnlyItsCases() throws {
        #expect(try accepted(.string(allowed: nil), .bytes(Array("état".utf8))).get() == .string("état"))
        #expect(refusal(.string(allowed: nil), .bytes([0xC3]))!
            == (MVVM_ERR_INVALID_ARGUMENT, "argument x: the bytes given for a string are not valid UTF-8"))
        let mood = ValueShape.string(allowed: EnumCases(typeName: "Mood", values: ["happy", "sad"]))
        #expect(try accepted(mood, .string("sad")).get() == .string("sad"))
        #expect(refusal(mood, .string("grumpy"))!
            == (MVVM_ERR_INVALID_ARGUMENT, "argument x cannot hold \"grumpy\": it is no case of Mood: happy, sad"))
    }

    @Test func nullIsTakenOnlyByAnOptional() throws {
        #expect(try accepted(.optional(int8), .null).get() == .null)
        #expect(try accepted(.optional(int8), .int(1)).get() == .int(1))
        #expect(refusal(int8, .null)! == (MVVM_ERR_INVALID_ARGUMENT, "argument x is of type int, not optional: it cannot be null"))
    }

    @Test func anArrayIsTakenItemByItemAndARefusalNamesTheItem() throws {
        let shape = ValueShape.array(.double)
        #expect(try accepted(shape, .array([.int(1), .double(2.5)])).get() == .array([.double(1), .double(2.5)]))
        #expect(refusal(.array(int8), .array([.int(1), .int(300)]))!
            == (MVVM_ERR_INVALID_ARGUMENT, "argument x[1] is out of range: 300 (-128 to 127)"))
    }

    @Test func aValueOfAnotherKindIsATypeMismatch() {
        #expect(refusal(int8, .bool(true))! == (MVVM_ERR_TYPE_MISMATCH, "argument x is of type int, not bool"))
        #expect(refusal(.bool, .string("yes"))! == (MVVM_ERR_TYPE_MISMATCH, "argument x is of type bool, not string"))
        #expect(refusal(.array(.bool), .bool(true))?.0 == MVVM_ERR_TYPE_MISMATCH)
    }
}
