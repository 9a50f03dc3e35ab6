// s3rver ships no types; this is the part the S3 driver test uses.
declare module 's3rver' {
  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      directory: string;
      silent?: boolean;
      configureBuckets?: Array<{ name: string }>;
    });
    run(): Promise<unknown>;
    close(): Promise<void>;
  }
}
