/**
 * Address ranges Apple Mail Privacy Protection's proxy fetches remote images from: the blocks Apple
 * has registered to itself (ARIN NET-17-0-0-0-1 for 17.0.0.0/8; its IPv6 allocations at ARIN, RIPE
 * and APNIC). Data, not logic: update it from Apple's registrations. A hit from outside these is
 * classified by its user agent and timing (traffic.ts).
 */
export const APPLE_EGRESS_RANGES: readonly string[] = [
  '17.0.0.0/8',
  '2620:149::/32',
  '2a01:b740::/32',
  '2403:300::/32',
];
