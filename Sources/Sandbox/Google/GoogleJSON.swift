/// The Google emulator's name for the shared JSON value (events are stored as JSON objects).
public typealias GoogleJSON = SandboxJSON
