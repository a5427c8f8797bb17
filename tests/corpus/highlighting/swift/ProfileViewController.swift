import UIKit
import Foundation

/// A user's public profile, as the API returns it.
struct Profile: Codable, Equatable {
    let id: Int
    var displayName: String
    var avatarURL: URL?
    var followers: Int = 0
}

enum ProfileError: Error {
    case notFound
    case server(status: Int)
}

final class ProfileLoader {
    private let session: URLSession
    private var cache: [Int: Profile] = [:]

    init(session: URLSession = .shared) {
        self.session = session
    }

    func load(id: Int) async throws -> Profile {
        if let cached = cache[id] {
            return cached
        }
        let url = URL(string: "https://api.example.com/users/\(id)")!
        let (data, response) = try await session.data(from: url)
        guard let http = response as? HTTPURLResponse else { throw ProfileError.notFound }
        switch http.statusCode {
        case 200:
            let profile = try JSONDecoder().decode(Profile.self, from: data)
            cache[id] = profile
            return profile
        case 404:
            throw ProfileError.notFound
        default:
            throw ProfileError.server(status: http.statusCode)
        }
    }
}

class ProfileViewController: UIViewController {
    @IBOutlet weak var nameLabel: UILabel!
    @IBOutlet weak var followersLabel: UILabel!
    private let loader = ProfileLoader()
    var userID = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Profile"
        Task { await refresh() }
    }

    @MainActor
    private func refresh() async {
        do {
            let profile = try await loader.load(id: userID)
            nameLabel.text = profile.displayName
            // TODO: format large numbers as "1.2k"
            followersLabel.text = "\(profile.followers) followers"
        } catch ProfileError.notFound {
            nameLabel.text = "No such user"
        } catch {
            print("failed: \(error)")
        }
    }
}

let ratios = [0.5, 1.25, 3e2].map { $0 * 2 }.filter { $0 > 1 }
print(ratios.sorted().first ?? 0x1F)
