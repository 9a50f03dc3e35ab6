// The accuracy spec's library: distinct questions, each answered by one entry (accuracy.e2e.ts).

/** Library entries the accuracy spec's assessment asks about word for word, so the engine answers each from one. */
export const ACCURACY_LIBRARY: ReadonlyArray<{ question: string; answer: string }> = [
  {
    question: 'Do you encrypt customer data at rest?',
    answer: 'Yes. Customer data at rest is encrypted with AES-256 and keys live in a managed key service.',
  },
  {
    question: 'Is data in transit protected with TLS 1.2 or higher?',
    answer: 'Yes. Every connection uses TLS 1.2 or higher; older protocols are disabled.',
  },
  {
    question: 'Do you support single sign-on with SAML 2.0?',
    answer: 'Yes. Customers can sign in with SAML 2.0 or OpenID Connect.',
  },
  {
    question: 'Is multi-factor authentication required for employees?',
    answer: 'Yes. Every employee signs in with hardware security keys.',
  },
  {
    question: 'Do you notify customers of breaches within 72 hours?',
    answer: 'Yes. Affected customers hear from us within 72 hours of a confirmed breach.',
  },
  {
    question: 'Do you hold a SOC 2 Type II report?',
    answer: 'Yes. Our SOC 2 Type II report is renewed every year and shared under NDA.',
  },
  {
    question: 'Are you certified to ISO 27001?',
    answer: 'Yes. Our information security management system is ISO 27001 certified.',
  },
  {
    question: 'Do you run an annual external penetration test?',
    answer: 'Yes. An independent firm tests the product every year.',
  },
  {
    question: 'Do you operate a public bug bounty programme?',
    answer: 'Yes. Researchers report issues through our bug bounty platform.',
  },
  { question: 'How often are backups taken?', answer: 'Backups run every hour and are kept for thirty-five days.' },
  {
    question: 'Are backups stored in a separate region?',
    answer: 'Yes. Backups are copied to a second region every day.',
  },
  {
    question: 'What is your recovery time objective?',
    answer: 'Our recovery time objective is four hours for the production service.',
  },
  { question: 'What is your recovery point objective?', answer: 'Our recovery point objective is one hour.' },
  {
    question: 'Is the disaster recovery plan tested every year?',
    answer: 'Yes. We rehearse a full regional failover once a year.',
  },
  {
    question: 'Do employees complete security awareness training?',
    answer: 'Yes. Everyone completes training when they join and every year after.',
  },
  {
    question: 'Do you perform background checks on new hires?',
    answer: 'Yes. New hires are screened before their first day where the law allows.',
  },
  {
    question: 'Do staff sign confidentiality agreements?',
    answer: 'Yes. Every employee and contractor signs a confidentiality agreement.',
  },
  {
    question: 'How quickly is access removed when someone leaves?',
    answer: "Access is revoked on the employee's last working day, within hours.",
  },
  {
    question: 'Are user access rights reviewed every quarter?',
    answer: "Yes. Managers confirm their team's access every quarter.",
  },
  {
    question: 'Are privileged actions logged and monitored?',
    answer: 'Yes. Administrative actions are logged centrally and alerted on.',
  },
  {
    question: 'How long are audit logs retained?',
    answer: 'Audit logs are retained for one year in write-once storage.',
  },
  {
    question: 'Do you scan dependencies for known vulnerabilities?',
    answer: 'Yes. Every build scans third-party packages for known vulnerabilities.',
  },
  {
    question: 'How quickly are critical vulnerabilities patched?',
    answer: 'Critical vulnerabilities are patched within seven days.',
  },
  {
    question: 'Is production code peer reviewed before release?',
    answer: 'Yes. Every change needs an approving review before it ships.',
  },
  { question: 'Do you use static code analysis?', answer: 'Yes. Static analysis runs on every pull request.' },
  {
    question: 'Are production and development environments separated?',
    answer: 'Yes. They run in separate accounts with separate credentials.',
  },
  {
    question: 'Is customer data used in test environments?',
    answer: 'No. Test environments only hold synthetic data.',
  },
  {
    question: 'Do you use customer data to train models?',
    answer: 'No. Customer data is never used to train machine learning models.',
  },
  {
    question: 'Where is customer data hosted?',
    answer: 'Customer data is hosted in AWS data centres in the European Union.',
  },
  {
    question: 'Do you use subprocessors?',
    answer: 'Yes. Our subprocessor list is published and customers are told of changes.',
  },
  {
    question: 'Do you sign a data processing agreement?',
    answer: 'Yes. Our data processing agreement includes the standard contractual clauses.',
  },
  {
    question: 'Are you compliant with GDPR?',
    answer: 'Yes. We act as a processor under GDPR and honour data subject requests.',
  },
  {
    question: 'How is customer data deleted at contract end?',
    answer: 'Customer data is deleted within thirty days of the contract ending.',
  },
  {
    question: 'Are laptops encrypted?',
    answer: 'Yes. Every laptop has full-disk encryption enforced by device management.',
  },
  {
    question: 'Do you run endpoint detection and response on laptops?',
    answer: 'Yes. Every laptop runs an endpoint detection and response agent.',
  },
  {
    question: 'Is a web application firewall in front of the service?',
    answer: 'Yes. All traffic passes through a managed web application firewall.',
  },
  {
    question: 'Do you protect against denial of service attacks?',
    answer: 'Yes. A managed service absorbs denial of service attacks at the edge.',
  },
  {
    question: 'Are secrets stored in a vault?',
    answer: 'Yes. Application secrets live in a managed secrets vault, never in code.',
  },
  { question: 'Are encryption keys rotated?', answer: 'Yes. Keys are rotated automatically every year.' },
  {
    question: 'Do you have an incident response plan?',
    answer: 'Yes. Our incident response plan is documented and rehearsed twice a year.',
  },
  {
    question: 'Is there a security team on call around the clock?',
    answer: 'Yes. An on-call engineer is reachable at all times.',
  },
  {
    question: 'Do you have cyber liability insurance?',
    answer: 'Yes. We carry cyber liability insurance of five million dollars.',
  },
  {
    question: 'Is there a named chief information security officer?',
    answer: 'Yes. Our CISO reports to the chief executive.',
  },
  {
    question: 'Are information security policies reviewed every year?',
    answer: 'Yes. Policies are reviewed and approved by leadership every year.',
  },
  {
    question: 'Do you assess the security of your vendors?',
    answer: 'Yes. Vendors handling customer data are reviewed before onboarding and yearly.',
  },
  {
    question: 'Is physical access to offices controlled?',
    answer: 'Yes. Offices use badge access and visitors are escorted.',
  },
  {
    question: 'Do you maintain an asset inventory?',
    answer: 'Yes. Hardware and cloud resources are tracked in a central inventory.',
  },
  {
    question: 'Is there a change management process for production?',
    answer: 'Yes. Production changes are tracked, reviewed and can be rolled back.',
  },
  {
    question: 'Is the service monitored for availability?',
    answer: 'Yes. Synthetic checks run every minute and page the on-call engineer.',
  },
  {
    question: 'What uptime do you commit to?',
    answer: 'We commit to 99.9 percent monthly uptime in our service level agreement.',
  },
  {
    question: 'Do customers get a status page?',
    answer: 'Yes. Our public status page shows incidents and maintenance.',
  },
  {
    question: 'Can customers export their data?',
    answer: 'Yes. Customers can export all their data as CSV or JSON at any time.',
  },
];
