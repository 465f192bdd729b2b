// swift-tools-version:6.1
import PackageDescription

// A program that uses calbridge's library products, as another package would. Built in .ci/run, so the
// public API cannot break without CI saying so.
let package = Package(
    name: "CalendarTour",
    dependencies: [.package(name: "calbridge", path: "../..")],
    targets: [
        .executableTarget(
            name: "calendar-tour",
            dependencies: [
                .product(name: "CalendarBridge", package: "calbridge"),
                .product(name: "GoogleCalendar", package: "calbridge"),
                .product(name: "MicrosoftGraph", package: "calbridge"),
                .product(name: "CalbridgeAccounts", package: "calbridge"),
                .product(name: "HTTP", package: "calbridge"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ]
)
