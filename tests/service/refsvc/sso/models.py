"""No models of its own: the links between users and IdP identities are social_django's
(UserSocialAuth); an SSO user's profile says external_account "social" (refsvc.svc)."""
