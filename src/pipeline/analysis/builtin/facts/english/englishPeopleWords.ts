import type { PeopleWords } from '../FactLexicon.js';

/** Words around person names in English calls. */
export const englishPeopleWords: PeopleWords = {
  titles: ['Dr', 'Doctor', 'Mr', 'Mrs', 'Ms', 'Miss', 'Prof', 'Professor'],
  roles: [
    'account manager', 'sales rep', 'team lead', 'line manager', 'project manager',
    'colleague', 'coworker', 'co-worker', 'manager', 'boss', 'supervisor', 'director', 'lawyer', 'attorney', 'solicitor',
    'accountant', 'assistant', 'secretary', 'partner', 'business partner', 'advisor', 'adviser', 'agent', 'rep',
    'engineer', 'technician', 'contractor', 'consultant', 'doctor', 'dentist', 'landlord', 'client', 'customer',
    // Trades and services that come to the home or see the patient.
    'plumber', 'electrician', 'builder', 'locksmith', 'handyman', 'decorator', 'roofer', 'gas engineer', 'heating engineer', 'tech',
    'loss adjuster', 'adjuster', 'assessor', 'surveyor', 'inspector', 'caseworker', 'case worker', 'social worker', 'carer',
    'nurse', 'practice nurse', 'hygienist', 'physio', 'physiotherapist', 'pharmacist', 'vet', 'receptionist', 'teacher', 'driver', 'courier',
    'crew', 'fitter', 'installer', 'mechanic', 'glazier', 'cleaner', 'gardener',
    'wife', 'husband', 'son', 'daughter', 'brother', 'sister', 'mother', 'father', 'mum', 'mom', 'dad', 'friend',
    'mam', 'mammy', 'nan', 'nana', 'gran', 'granny', 'grandma', 'grandad', 'grandpa', 'aunt', 'auntie', 'uncle', 'cousin', 'neighbour', 'neighbor',
    'CEO', 'CFO', 'CTO', 'COO', 'owner', 'founder', 'head of sales', 'buyer',
  ],
  roleDeterminers: ['my', 'our', 'your', 'his', 'her', 'their', 'the'],
  mentionVerbs: [
    'talk to', 'talk with', 'speak to', 'speak with', 'ask', 'call', 'ring', 'email', 'e-mail', 'text', 'contact',
    'check with', 'cc', 'copy in', 'loop in', 'meet with', 'tell', 'let', 'reach out to', 'get in touch with',
    'send it to', 'forward it to', 'pass it to', 'hand it to', 'introduce you to', 'put you in touch with',
    'heard from', 'hear from', 'spoke to', 'spoke with', 'talked to', 'talked with',
  ],
  possessedNouns: [
    'office', 'team', 'number', 'email', 'desk', 'phone', 'assistant', 'manager', 'calendar', 'department', 'approval',
    'signature', 'input', 'decision', 'schedule', 'address', 'boss', 'colleague', 'company', 'side', 'details', 'availability',
    // Family and carers: "Ellie's mum", "Tom's teacher" name a person too.
    'mum', 'mom', 'dad', 'mother', 'father', 'parent', 'parents', 'son', 'daughter', 'wife', 'husband', 'sister', 'brother',
    'grandmother', 'grandfather', 'nan', 'teacher', 'carer', 'class',
  ],
  affiliationWord: 'from',
  companions: ['you and', 'me and', 'us and', 'yourself and', 'myself and'],
  notNames: [
    // Calendar words (chrono finds the dates; they are no people).
    'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'January', 'February', 'March',
    'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December', 'Christmas', 'Easter',
    // Words a transcript capitalises at a sentence start or always.
    'I', 'OK', 'Okay', 'Yes', 'Yeah', 'No', 'Hi', 'Hello', 'Hey', 'Thanks', 'Thank', 'Sure', 'Please', 'Sorry', 'Great',
    'Well', 'So', 'And', 'But', 'Then', 'Also', 'Just', 'Oh', 'Right', 'Good', 'Perfect', 'Fine', 'God', 'Sir', 'Madam',
    // Hesitations ("Um, my partner's got the car": no partner called Um).
    'Um', 'Umm', 'Uh', 'Er', 'Erm', 'Ah', 'Hmm', 'Mm', 'Ooh', 'Lovely', 'Brilliant', 'Cheers', 'Grand', 'Actually', 'Anyway',
    'The', 'This', 'That', 'It', 'We', 'You', 'They', 'He', 'She', 'Everyone', 'Someone', 'Anyone', 'Nobody', 'Team',
    'Both', 'All', 'Let', 'Can', 'Could', 'Would', 'Will', 'Maybe', 'Now', 'Today', 'Tomorrow', 'Tonight', 'Yesterday',
    // Products, brands and channels said in calls.
    'Zoom', 'Teams', 'Microsoft', 'Google', 'Meet', 'WhatsApp', 'Telegram', 'Signal', 'Skype', 'Slack', 'Outlook',
    'Gmail', 'Excel', 'Word', 'PDF', 'Apple', 'Amazon', 'LinkedIn', 'Facebook', 'SMS', 'FaceTime',
    // Departments ("talk to Sales").
    'Sales', 'Support', 'Finance', 'Legal', 'HR', 'IT', 'Accounts', 'Accounting', 'Billing', 'Marketing',
    'Procurement', 'Operations', 'Customer', 'Service', 'Reception', 'Management', 'Engineering', 'Compliance',
    // Languages and places often said.
    'English', 'London', 'Berlin', 'Paris', 'Europe', 'America', 'UK', 'US', 'USA', 'EU',
  ],
};
