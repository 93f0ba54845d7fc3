// A host's configuration as a new user writes it: nothing Signet-specific (no transpilePackages).
export default {};
