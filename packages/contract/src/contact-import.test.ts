import { describe, expect, it } from 'vitest';
import { detectColumns, splitTags } from './contact-import.ts';

/** Issue 22 (import column mapping): the export headers of the usual tools are matched on their own. */
describe('detectColumns', () => {
  it('matches a Mailchimp export, leaving its own columns ignored', () => {
    const headers = ['Email Address', 'First Name', 'Last Name', 'Phone Number', 'MEMBER_RATING', 'OPTIN_TIME', 'TAGS'];
    expect(detectColumns(headers)).toEqual(['email', 'firstName', 'lastName', 'phone', 'ignore', 'ignore', 'tags']);
  });

  it('matches a Brevo export', () => {
    const headers = ['CONTACT ID', 'EMAIL', 'FIRSTNAME', 'LASTNAME', 'SMS', 'BLACKLISTED'];
    expect(detectColumns(headers)).toEqual(['ignore', 'email', 'firstName', 'lastName', 'phone', 'ignore']);
  });

  it('matches a HubSpot export', () => {
    const headers = [
      'Record ID',
      'First Name',
      'Last Name',
      'Email',
      'Phone Number',
      'Company Name',
      'Job Title',
      'City',
      'Lifecycle Stage',
    ];
    expect(detectColumns(headers)).toEqual([
      'ignore',
      'firstName',
      'lastName',
      'email',
      'phone',
      'company',
      'jobTitle',
      'location',
      'ignore',
    ]);
  });

  it('matches a Google Contacts export, old and new: the first e-mail and phone values, labels as tags', () => {
    const old = [
      'Name',
      'Given Name',
      'Family Name',
      'Group Membership',
      'E-mail 1 - Type',
      'E-mail 1 - Value',
      'E-mail 2 - Value',
      'Phone 1 - Type',
      'Phone 1 - Value',
      'Organization 1 - Name',
      'Organization 1 - Title',
    ];
    expect(detectColumns(old)).toEqual([
      'fullName',
      'firstName',
      'lastName',
      'tags',
      'ignore',
      'email',
      'ignore',
      'ignore',
      'phone',
      'company',
      'jobTitle',
    ]);
    const current = [
      'First Name',
      'Middle Name',
      'Last Name',
      'Organization Name',
      'Organization Title',
      'Labels',
      'E-mail 1 - Label',
      'E-mail 1 - Value',
      'Phone 1 - Label',
      'Phone 1 - Value',
    ];
    expect(detectColumns(current)).toEqual([
      'firstName',
      'ignore',
      'lastName',
      'company',
      'jobTitle',
      'tags',
      'ignore',
      'email',
      'ignore',
      'phone',
    ]);
  });
});

describe('splitTags', () => {
  it('unquotes Mailchimp tags and splits Google labels, dropping its system labels', () => {
    expect(splitTags('"Customers","VIP"')).toEqual(['Customers', 'VIP']);
    expect(splitTags('* myContacts ::: Friends ::: Family')).toEqual(['Friends', 'Family']);
    expect(splitTags(' a; b | a ')).toEqual(['a', 'b']);
  });
});
