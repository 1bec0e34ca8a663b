import { describe, expect, it } from 'vitest';
import { completenessPoints, deliverabilityPoints, matchPoints, scoreLead, type ScoreInput } from './leads.scoring.ts';

const bare: ScoreInput = {
  email: null,
  firstName: '',
  lastName: '',
  company: null,
  jobTitle: null,
  location: null,
  phone: null,
  website: null,
  source: 'sample',
};
const mx = { mail: 'mx', disposable: false, role: false, freeMail: false } as const;

describe('lead scoring formula', () => {
  it('match: whole profession 30, a shared word or stem 15, else 0', () => {
    expect(matchPoints('Real Estate Agent', 'Senior Real Estate Agent', [])).toBe(30);
    expect(matchPoints('Plumber', null, ['Plumbing', 'Water Heater Installation'])).toBe(15);
    expect(matchPoints('Dentist', 'Orthodontics', ['Dentists'])).toBe(30);
    expect(matchPoints('Photographer', null, ['Wedding Photography'])).toBe(15);
    expect(matchPoints('Lawyer', 'Accountant', ['Tax Services'])).toBe(0);
    expect(matchPoints(null, 'Lawyer', [])).toBe(0);
    expect(matchPoints('  ', 'Lawyer', [])).toBe(0);
  });

  it('completeness: 5 per known part', () => {
    expect(completenessPoints(bare)).toBe(0);
    expect(completenessPoints({ ...bare, firstName: 'A' })).toBe(0);
    expect(completenessPoints({ ...bare, firstName: 'A', lastName: 'B', website: 'https://b.example' })).toBe(10);
    expect(
      completenessPoints({
        ...bare,
        firstName: 'A',
        lastName: 'B',
        company: 'C',
        jobTitle: 'D',
        location: 'E',
        phone: '1',
      }),
    ).toBe(25);
  });

  it('deliverability: MX 30, unchecked 10, no mail or disposable 0, role −10, free mail −5', () => {
    expect(deliverabilityPoints(null, mx)).toBe(0);
    expect(deliverabilityPoints('a@b.example', undefined)).toBe(10);
    expect(deliverabilityPoints('a@b.example', mx)).toBe(30);
    expect(deliverabilityPoints('a@b.example', { ...mx, mail: 'no-mail' })).toBe(0);
    expect(deliverabilityPoints('a@b.example', { ...mx, disposable: true })).toBe(0);
    expect(deliverabilityPoints('info@b.example', { ...mx, role: true })).toBe(20);
    expect(deliverabilityPoints('a@gmail.com', { ...mx, freeMail: true })).toBe(25);
    expect(
      deliverabilityPoints('info@gmail.com', { mail: 'unchecked', disposable: false, role: true, freeMail: true }),
    ).toBe(0);
  });

  it('sums the four parts, from 0 for a bare sample row to 100 for a complete confirmed match', () => {
    expect(scoreLead(bare)).toBe(0);
    const complete: ScoreInput = {
      email: 'jane@smith-dental.example',
      firstName: 'Jane',
      lastName: 'Smith',
      company: 'Smith Dental',
      jobTitle: 'Dentist',
      location: 'Austin, TX',
      phone: '+1 512 555 0100',
      website: null,
      profession: 'Dentist',
      source: 'form-confirmed',
      address: mx,
    };
    expect(scoreLead(complete)).toBe(100);
    // A business found by search: category stem match, no person, unchecked address.
    expect(
      scoreLead({
        ...bare,
        email: 'office@plumb.example',
        company: 'Ace Plumbing',
        location: 'Denver, CO',
        phone: '303',
        categories: ['Plumbing'],
        profession: 'Plumber',
        source: 'places',
        address: { ...mx, role: true },
      }),
    ).toBe(15 + 15 + 20 + 6);
  });
});
