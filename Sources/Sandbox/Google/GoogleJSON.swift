/// The Google emulator's name for the shared JSON value (events are stored as JSON objects).
package typealias GoogleJSON = SandboxJSON
